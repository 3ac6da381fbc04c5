import { describe, expect, it } from 'vitest';
import { ConfigProblemCode, formatProblem } from './config-problem.js';
import {
  ConfigError,
  ConfigErrorCode,
  FileUnusableError,
  invalidArgument,
  InvalidServerError,
  ServerEntryError,
  writeFailed,
} from './errors.js';

const problem = {
  code: ConfigProblemCode.INVALID_JSON,
  file: '/h/mcp.json',
  line: 3,
  column: 7,
  message: 'is not valid JSON at line 3, column 7',
} as const;

const ERRORS = [
  [
    invalidArgument('loadConfig: pass { env }'),
    ConfigError,
    ConfigErrorCode.INVALID_ARGUMENT,
    'ConfigError',
  ],
  [
    new InvalidServerError('/f', [problem]),
    InvalidServerError,
    ConfigErrorCode.INVALID_SERVER,
    'InvalidServerError',
  ],
  [
    new FileUnusableError('/f', [problem]),
    FileUnusableError,
    ConfigErrorCode.FILE_UNUSABLE,
    'FileUnusableError',
  ],
  [
    new ServerEntryError(ConfigErrorCode.SERVER_EXISTS, '/f', 'gh'),
    ServerEntryError,
    ConfigErrorCode.SERVER_EXISTS,
    'ServerEntryError',
  ],
  [
    new ServerEntryError(ConfigErrorCode.NOT_FOUND, '/f', 'gh'),
    ServerEntryError,
    ConfigErrorCode.NOT_FOUND,
    'ServerEntryError',
  ],
  [
    writeFailed('/f', Object.assign(new Error('x'), { code: 'EROFS' })),
    ConfigError,
    ConfigErrorCode.WRITE_FAILED,
    'ConfigError',
  ],
] as const;

describe('errors', () => {
  for (const [error, Class, code, name] of ERRORS) {
    it(`${name} ${code} has its code, name and marker`, () => {
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toBeInstanceOf(Error);
      expect(error.code).toBe(code);
      expect(error.name).toBe(name);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect(Class.isInstance(error)).toBe(true);
      for (const [, Other] of ERRORS) {
        const above = Other === Class || Class.prototype instanceof Other;
        expect(Other.isInstance(error)).toBe(above);
      }
      expect(error.message.length).toBeGreaterThan(10);
    });
  }

  it('recognises errors from another copy of the package', () => {
    const foreign = { [Symbol.for('garuda.mcp-config.ConfigError')]: true, code: 'NOT_FOUND' };
    expect(ConfigError.isInstance(foreign)).toBe(true);
    expect(ServerEntryError.isInstance(foreign)).toBe(false);
    expect(
      ServerEntryError.isInstance({
        [Symbol.for('garuda.mcp-config.ServerEntryError')]: true,
      }),
    ).toBe(true);
    expect(ConfigError.isInstance(new Error('x'))).toBe(false);
    expect(ConfigError.isInstance(null)).toBe(false);
    expect(ConfigError.isInstance('ConfigError')).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = Object.assign(new Error('disk'), { code: 'ENOSPC' });
    const error = writeFailed('/f', cause);
    expect(error.cause).toBe(cause);
    expect(error.message).toContain('ENOSPC');
    expect(new FileUnusableError('/f', [problem], cause).cause).toBe(cause);
    expect('cause' in invalidArgument('x')).toBe(false);
  });

  it('quotes and cleans names and paths in messages', () => {
    const path = new ServerEntryError(ConfigErrorCode.NOT_FOUND, '/p\u202eq\u200b', 'x');
    expect(path.message).toContain('in "/p\\u202eq\\u200b"');
    const error = new ServerEntryError(ConfigErrorCode.NOT_FOUND, '/a\nb', 'x\u001b[2J\u202ey');
    expect(error.message).toContain('there is no server "xy" in "/a\\nb"');
    expect(error.server).toBe('xy');
    expect(error.message).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('exposes problems', () => {
    expect(new InvalidServerError('/f', [problem]).problems).toEqual([problem]);
    expect(new FileUnusableError('/f', [problem]).file).toBe('/f');
  });

  it('has stable codes', () => {
    expect(Object.values(ConfigErrorCode).every((code, _i, all) => all.indexOf(code) === _i)).toBe(
      true,
    );
    expect(Object.isFrozen(ConfigErrorCode)).toBe(true);
    expect(Object.isFrozen(ConfigProblemCode)).toBe(true);
    for (const [key, value] of Object.entries({ ...ConfigErrorCode, ...ConfigProblemCode })) {
      expect(key).toBe(value);
    }
  });
});

describe('formatProblem', () => {
  it('puts the place first', () => {
    expect(formatProblem(problem)).toBe('/h/mcp.json:3:7: is not valid JSON at line 3, column 7');
    expect(
      formatProblem({ code: ConfigProblemCode.FILE_TOO_LARGE, file: '/h/mcp.json', message: 'm' }),
    ).toBe('/h/mcp.json: m');
  });
});
