// parseClientFile: another client's file parsed as import parses it, for callers that edit it.

import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { IMPORT_CLIENTS } from './import-types.js';
import { parseClientFile } from './parse-client-file.js';

const LEVELS = 100_000;

describe('parseClientFile', () => {
  it('reads each client by its own syntax', () => {
    expect(parseClientFile('codex', '[mcp_servers.a]\ncommand = "x"\n')).toEqual({
      ok: true,
      value: { mcp_servers: { a: { command: 'x' } } },
    });
    expect(parseClientFile('gemini', '{ // c\n "a": 1, }')).toEqual({ ok: true, value: { a: 1 } });
    const strict = parseClientFile('claude', '{ // c\n "a": 1 }');
    expect(strict.ok).toBe(false);
  });

  it('refuses stack exhaustion (100 000 levels of nesting) in every client with TOO_DEEP, without recursing', () => {
    const json = `{"a":${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}}`;
    const toml = `a = ${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}\n`;
    for (const client of IMPORT_CLIENTS) {
      const parsed = parseClientFile(client, client === 'codex' ? toml : json);
      expect(parsed.ok, client).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.problems[0]?.code, client).toBe(
        client === 'codex' ? 'INVALID_SYNTAX' : 'TOO_DEEP',
      );
      expect(parsed.problems[0]?.message).toMatch(/deep|nest/i);
    }
  });

  it('gives the line of a TOML syntax error', () => {
    const parsed = parseClientFile('codex', 'model = "o4"\n[mcp_servers.x\ncommand = "a"\n');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems[0]).toMatchObject({ code: 'INVALID_SYNTAX', line: 2 });
    expect(parsed.problems[0]?.message).toContain('line 2');
  });

  it('throws INVALID_ARGUMENT only for a programming error', () => {
    expect(() => parseClientFile('notepad' as never, '{}')).toThrow(ConfigError);
    expect(() => parseClientFile('codex', 42 as never)).toThrow(ConfigError);
  });
});
