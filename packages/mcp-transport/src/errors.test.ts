import { describe, expect, it } from 'vitest';
import {
  TransportOptionsError,
  InvalidPolicyError,
  SpawnFailedError,
  TransportError,
  TransportErrorCode,
  UnprotectablePathError,
  badMessage,
} from './errors.js';

describe('sandbox errors', () => {
  const cases = [
    [
      new TransportOptionsError('timeoutMs', 'must be positive.'),
      'TransportOptionsError',
      TransportErrorCode.INVALID_OPTIONS,
      TransportOptionsError,
    ],
    [
      new InvalidPolicyError('root', 'must be absolute.'),
      'InvalidPolicyError',
      TransportErrorCode.INVALID_POLICY,
      InvalidPolicyError,
    ],
    [
      new UnprotectablePathError('/p/.git/hooks'),
      'UnprotectablePathError',
      TransportErrorCode.UNPROTECTABLE_PATH,
      UnprotectablePathError,
    ],
    [
      new SpawnFailedError(TransportErrorCode.COMMAND_NOT_FOUND, 'github-mcp-server'),
      'SpawnFailedError',
      TransportErrorCode.COMMAND_NOT_FOUND,
      SpawnFailedError,
    ],
    [
      new SpawnFailedError(TransportErrorCode.SPAWN_FAILED, 'server', { code: 'EACCES' }),
      'SpawnFailedError',
      TransportErrorCode.SPAWN_FAILED,
      SpawnFailedError,
    ],
    [
      badMessage('not json', new SyntaxError('x')),
      'TransportError',
      TransportErrorCode.BAD_MESSAGE,
      TransportError,
    ],
  ] as const;

  it.each(cases)('%s has its name, code and markers', (error, name, code, Class) => {
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(Error);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(Class.isInstance(error)).toBe(true);
    if (Class !== TransportError) {
      expect(Class.isInstance(new TransportError(code, 'x'))).toBe(false);
    }
  });

  it('recognises an error from another copy of the package by its marker', () => {
    const foreign = Object.assign(new Error('x'), { code: 'TRANSPORT_INVALID_POLICY' });
    Object.defineProperty(foreign, Symbol.for('garuda.mcp-transport.TransportError'), {
      value: true,
    });
    Object.defineProperty(foreign, Symbol.for('garuda.mcp-transport.InvalidPolicyError'), {
      value: true,
    });
    expect(TransportError.isInstance(foreign)).toBe(true);
    expect(InvalidPolicyError.isInstance(foreign)).toBe(true);
    expect(SpawnFailedError.isInstance(foreign)).toBe(false);
    expect(TransportError.isInstance(null)).toBe(false);
    expect(TransportError.isInstance('TRANSPORT_INVALID_POLICY')).toBe(false);
  });

  it('says what happened and what to do, with untrusted text quoted and cleaned', () => {
    const error = new SpawnFailedError(
      TransportErrorCode.COMMAND_NOT_FOUND,
      'evil\n\x1b[2Jserver\u202e',
      new Error('spawn ENOENT'),
    );
    expect(error.message).toBe(
      'command not found: "evil\\nserver"; install it, or give its full path, or add its folder to the server\'s PATH (env.PATH).',
    );
    expect((error.cause as Error).message).toBe('spawn ENOENT');
    expect(
      new SpawnFailedError(TransportErrorCode.SPAWN_FAILED, 'srv', { code: 'EACCES' }).message,
    ).toBe('could not start "srv" (EACCES): check that it is an executable file you may run');
    expect(new UnprotectablePathError('/p/.git').message).toMatch(
      /is a symbolic link.*replace the link/,
    );
  });
});
