import { checkErrorSamples, checkForeignCopies } from '@garuda/test-utils';
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
  {
    error: invalidArgument('loadConfig: pass { env }'),
    Class: ConfigError,
    code: ConfigErrorCode.INVALID_ARGUMENT,
    name: 'ConfigError',
  },
  {
    error: new InvalidServerError('/f', [problem]),
    Class: InvalidServerError,
    code: ConfigErrorCode.INVALID_SERVER,
    name: 'InvalidServerError',
  },
  {
    error: new FileUnusableError('/f', [problem]),
    Class: FileUnusableError,
    code: ConfigErrorCode.FILE_UNUSABLE,
    name: 'FileUnusableError',
  },
  {
    error: new ServerEntryError(ConfigErrorCode.SERVER_EXISTS, '/f', 'gh'),
    Class: ServerEntryError,
    code: ConfigErrorCode.SERVER_EXISTS,
    name: 'ServerEntryError',
  },
  {
    error: new ServerEntryError(ConfigErrorCode.NOT_FOUND, '/f', 'gh'),
    Class: ServerEntryError,
    code: ConfigErrorCode.NOT_FOUND,
    name: 'ServerEntryError',
  },
  {
    error: writeFailed('/f', Object.assign(new Error('x'), { code: 'EROFS' })),
    Class: ConfigError,
    code: ConfigErrorCode.WRITE_FAILED,
    name: 'ConfigError',
  },
] as const;

describe('errors', () => {
  checkErrorSamples(ConfigError, ERRORS);
  checkForeignCopies(ConfigError, 'garuda.mcp-config.ConfigError', [
    InvalidServerError,
    FileUnusableError,
    ServerEntryError,
  ]);

  it('say what happened in every message', () => {
    for (const { error } of ERRORS) expect(error.message.length).toBeGreaterThan(10);
  });

  it('recognises a subclass from another copy of the package by its own marker', () => {
    const foreign = { [Symbol.for('garuda.mcp-config.ServerEntryError')]: true };
    expect(ServerEntryError.isInstance(foreign)).toBe(true);
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
    for (const [key, value] of Object.entries(ConfigErrorCode)) expect(value).toBe(`CONFIG_${key}`);
    for (const [key, value] of Object.entries(ConfigProblemCode)) expect(key).toBe(value);
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
