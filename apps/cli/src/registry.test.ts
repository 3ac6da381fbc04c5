import { describe, expect, it } from 'vitest';
import { COMMANDS } from './registry.js';
import { flagOf } from './shared/command.js';
import { GLOBAL_FLAGS } from './shared/global-flags.js';

describe('the command registry', () => {
  it('names each command once, and each usage line starts with its name', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of COMMANDS) {
      for (const line of command.usage.split('\n')) {
        expect(line.trim(), command.name).toMatch(new RegExp(`^garuda-mcp ${command.name}(\\s|$)`));
      }
    }
  });

  it('gives a flag one meaning: the same kind of value wherever it is declared', () => {
    const kinds = new Map<string, string>(
      Object.entries(GLOBAL_FLAGS).map(([name, spec]) => [name, spec.type]),
    );
    for (const command of COMMANDS) {
      for (const option of command.options ?? []) {
        const { name, type } = flagOf(option);
        expect(kinds.get(name) ?? type, `--${name} of ${command.name}`).toBe(type);
        kinds.set(name, type);
      }
      for (const name of command.repeatable ?? []) {
        const own = (command.options ?? []).map((o) => flagOf(o).name);
        expect(own, `${command.name} repeats --${name}`).toContain(name);
      }
    }
  });

  it('declares sensible argument counts', () => {
    for (const { name, positionals } of COMMANDS) {
      expect(positionals.min, name).toBeLessThanOrEqual(positionals.max);
    }
  });
});
