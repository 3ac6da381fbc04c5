import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigProblemCode } from './config-problem.js';
import { SERVER_HOME_VARIABLE } from '@garuda/internal';
import { expandEnv } from './expand-env.js';

describe('expandEnv', () => {
  it('expands ${NAME} and reports where each value comes from', () => {
    const result = expandEnv(
      {
        TOKEN: 'Bearer ${GH_TOKEN}',
        MODE: 'fast',
        BOTH: '${A}:${B}:${A}',
        EMPTY: '',
      },
      { GH_TOKEN: 'abc', A: '1', B: '' },
    );
    expect(result).toEqual({
      values: { TOKEN: 'Bearer abc', MODE: 'fast', BOTH: '1::1', EMPTY: '' },
      sources: {
        TOKEN: { kind: 'vars', names: ['GH_TOKEN'], missing: [] },
        MODE: { kind: 'literal' },
        BOTH: { kind: 'vars', names: ['A', 'B'], missing: [] },
        EMPTY: { kind: 'literal' },
      },
      missing: [],
      problems: [],
    });
  });

  it('keeps ${GARUDA_SERVER_HOME} in env values for the manager, never unset nor from the environment', () => {
    expect(SERVER_HOME_VARIABLE).toBe('GARUDA_SERVER_HOME');
    const env = expandEnv(
      { MEMORY_FILE_PATH: '${GARUDA_SERVER_HOME}/memory.jsonl', B: '${A}:${GARUDA_SERVER_HOME}' },
      { A: '1', GARUDA_SERVER_HOME: '/elsewhere' },
    );
    expect(env.values).toEqual({
      MEMORY_FILE_PATH: '${GARUDA_SERVER_HOME}/memory.jsonl',
      B: '1:${GARUDA_SERVER_HOME}',
    });
    expect(env.missing).toEqual([]);
    expect(env.problems).toEqual([]);
    // A header has no server home: there it is an ordinary variable.
    const header = expandEnv({ X: '${GARUDA_SERVER_HOME}' }, {}, { kind: 'header' });
    expect(header.missing).toEqual(['GARUDA_SERVER_HOME']);
  });

  it('turns missing names into empty text and lists them once', () => {
    const result = expandEnv(
      { X: 'a${NOPE}b${ALSO}', Y: '${NOPE}', Z: '${UNDEF}' },
      { UNDEF: undefined },
    );
    expect(result.values).toEqual({ X: 'ab', Y: '', Z: '' });
    expect(result.sources.X).toEqual({
      kind: 'vars',
      names: ['NOPE', 'ALSO'],
      missing: ['NOPE', 'ALSO'],
    });
    expect(result.missing).toEqual(['NOPE', 'ALSO', 'UNDEF']);
    expect(result.problems.map((p) => [p.code, p.key])).toEqual([
      [ConfigProblemCode.MISSING_VARIABLE, 'X'],
      [ConfigProblemCode.MISSING_VARIABLE, 'Y'],
      [ConfigProblemCode.MISSING_VARIABLE, 'Z'],
    ]);
    expect(result.problems[0]?.message).toBe(
      'env "X" takes ${NOPE}, ${ALSO}, which are not set, so the server will not start until they are: ' +
        'set NOPE, ALSO in the environment that starts this program, or change the value',
    );
  });

  it('leaves $NAME, $$ and a lone $ as text and never expands twice', () => {
    const result = expandEnv({ A: '$HOME $$ $ ${X}', B: '$${X}' }, { HOME: '/root', X: '${HOME}' });
    expect(result.values).toEqual({ A: '$HOME $$ $ ${HOME}', B: '$${HOME}' });
    expect(result.problems).toEqual([]);
  });

  it.each([
    ['!cmd', ConfigProblemCode.VALUE_REJECTED, 'starts with "!"'],
    ['!', ConfigProblemCode.VALUE_REJECTED, 'starts with "!"'],
    ['$(id)', ConfigProblemCode.VALUE_REJECTED, '"$("'],
    ['a $(id) b', ConfigProblemCode.VALUE_REJECTED, '"$("'],
    ['`id`', ConfigProblemCode.VALUE_REJECTED, 'backtick'],
    ['x`', ConfigProblemCode.VALUE_REJECTED, 'backtick'],
    ['${', ConfigProblemCode.BAD_REFERENCE, 'without a closing "}"'],
    ['${A', ConfigProblemCode.BAD_REFERENCE, 'without a closing "}"'],
    ['${}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ['${1A}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ['${A-B}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ['${A:-x}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ['${ A }', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
    ['${${A}}', ConfigProblemCode.BAD_REFERENCE, 'not a variable name'],
  ])('refuses %j', (value, code, says) => {
    const result = expandEnv({ GOOD: 'ok', BAD: value }, { A: 'a' });
    expect(result.values).toEqual({ GOOD: 'ok' });
    expect(Object.keys(result.sources)).toEqual(['GOOD']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ code, key: 'BAD' });
    expect(result.problems[0]?.message).toContain(says);
    expect(result.problems[0]?.message.startsWith('env "BAD" ')).toBe(true);
  });

  it('checks headers for line breaks after expansion, without showing the value', () => {
    const from = { T: 'secret\r\nX-Evil: 1', N: 'a\u0000b' };
    const result = expandEnv({ Authorization: 'Bearer ${T}', 'X-A': 'ok', 'X-B': '${N}' }, from, {
      kind: 'header',
    });
    expect(result.values).toEqual({ 'X-A': 'ok' });
    expect(result.problems.map((p) => [p.code, p.key])).toEqual([
      [ConfigProblemCode.VALUE_UNSAFE, 'Authorization'],
      [ConfigProblemCode.VALUE_UNSAFE, 'X-B'],
    ]);
    expect(result.problems[0]?.message).toMatch(
      /^header "Authorization" would contain a line break/,
    );
    expect(JSON.stringify(result.problems)).not.toContain('secret');
    // Env values may hold line breaks, but never NUL.
    const env = expandEnv({ A: '${T}', B: '${N}' }, from);
    expect(Object.keys(env.values)).toEqual(['A']);
    expect(env.problems.map((p) => p.key)).toEqual(['B']);
  });

  it('refuses a value longer than 100 000 characters once expanded', () => {
    const result = expandEnv({ A: '${X}${X}', B: '${X}' }, { X: 'x'.repeat(60_000) });
    expect(Object.keys(result.values)).toEqual(['B']);
    expect(result.problems).toMatchObject([{ code: ConfigProblemCode.VALUE_TOO_LONG, key: 'A' }]);
  });

  it('refuses what would take all values past 1 MiB', () => {
    const values: Record<string, string> = {};
    for (let i = 0; i < 15; i++) values[`K${i}`] = '${X}';
    const result = expandEnv(values, { X: 'x'.repeat(90_000) });
    expect(Object.keys(result.values)).toHaveLength(11); // 11 × 90 000 < 1 048 576 < 12 × 90 000
    expect(result.problems).toHaveLength(4);
    expect(result.problems.every((p) => p.code === ConfigProblemCode.VALUE_TOO_LONG)).toBe(true);
  });

  it('keeps a "__proto__" key as a key', () => {
    const values = JSON.parse('{"__proto__": "${A}"}') as Record<string, string>;
    const result = expandEnv(values, { A: 'x' });
    expect(Object.keys(result.values)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result.values)).toBe(Object.prototype);
    expect(result.values['__proto__']).toBe('x');
  });

  it('throws only for programming errors', () => {
    expect(() => expandEnv(null as never, {})).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => expandEnv({}, null as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => expandEnv({ A: 1 } as never, {})).toThrow(/not a string/);
    expect(() => expandEnv({}, {}, { kind: 'x' as never })).toThrow(/kind/);
  });

  it('never throws and never leaks a variable into a message (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.string({ unit: 'binary' })),
        fc.dictionary(fc.string(), fc.string()),
        fc.constantFrom<'env' | 'header'>('env', 'header'),
        (values, from, kind) => {
          const secretFrom = Object.fromEntries(
            Object.keys(from).map((k) => [k, `SECRET-${k}-VALUE`]),
          );
          const result = expandEnv(values, secretFrom, { kind });
          for (const p of result.problems) {
            expect(p.message).not.toContain('SECRET-');
            expect(p.message).not.toMatch(/[\u0000-\u001f]/);
          }
          for (const key of Object.keys(result.values)) {
            expect(result.sources[key]).toBeDefined();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
