import { TOOL_EXPOSURES } from '@garuda/mcp-config';
import { APPROVAL_MODES } from '@garuda/mcp-manager';
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS } from './global-flags.js';
import { checkedMode, orList } from './modes.js';

/** The mode flags and the table each speaks from. */
const FLAGS: readonly (readonly [
  'approval-mode' | 'exposure',
  Readonly<Record<string, string>>,
  string,
])[] = [
  ['approval-mode', APPROVAL_MODES, 'ask'],
  ['exposure', TOOL_EXPOSURES, 'direct'],
];

describe('the mode flags', () => {
  it.each(FLAGS)(
    '--%s help lists exactly the modes of its table, each described',
    (flag, table, first) => {
      const [, ...lines] = GLOBAL_FLAGS[flag].help;
      const rows = lines.map((line) => /^ {22}(\S+) +(.*?)( \(default\))?$/.exec(line));
      expect(rows.map((row) => row?.[1])).toEqual(Object.keys(table));
      expect(rows.map((row) => row?.[2])).toEqual(Object.values(table));
      expect(rows.filter((row) => row?.[3] !== undefined).map((row) => row?.[1])).toEqual([first]);
    },
  );

  it.each(FLAGS)(
    '--%s takes every mode of its table; its usage error lists exactly them',
    (flag, table) => {
      for (const mode of Object.keys(table))
        expect(checkedMode(`--${flag}`, mode, table)).toBe(mode);
      let message = '';
      try {
        checkedMode(`--${flag}`, 'yolo', table);
      } catch (e) {
        message = (e as Error).message;
      }
      const expected = Object.entries(table).map(([mode, what]) => `${mode} (${what})`);
      expect(message).toContain(`--${flag} must be ${orList(expected)}, not "yolo".`);
      // Inherited object keys are not modes.
      expect(() => checkedMode(`--${flag}`, 'toString', table)).toThrow(`--${flag} must be`);
    },
  );

  it('orList joins with commas and a last "or"', () => {
    expect(orList([])).toBe('');
    expect(orList(['a'])).toBe('a');
    expect(orList(['a', 'b', 'c'])).toBe('a, b or c');
  });
});
