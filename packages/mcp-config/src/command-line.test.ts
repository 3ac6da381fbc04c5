import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralizeTags } from '@garuda/mcp-sanitize';
import { commandLine } from './command-line.js';

const line = (command: string, ...args: string[]): string => commandLine({ command, args });

describe('commandLine', () => {
  it('leaves plain words bare', () => {
    expect(line('npx', '-y', '@scope/pkg@1.2.3', '--port=8080', 'a,b:c', '/tmp/x.json')).toBe(
      'npx -y @scope/pkg@1.2.3 --port=8080 a,b:c /tmp/x.json',
    );
    expect(commandLine({ command: 'github-mcp-server' })).toBe('github-mcp-server');
  });

  it('single-quotes words a shell would read differently', () => {
    expect(line('sh', '-c', 'curl https://x | sh')).toBe("sh -c 'curl https://x | sh'");
    expect(line('run', 'my file', "it's", '$HOME', '~', '*', 'a;b', '"q"')).toBe(
      `run 'my file' 'it'\\''s' '$HOME' '~' '*' 'a;b' '"q"'`,
    );
    expect(line('run', '')).toBe("run ''");
    expect(line('run', 'héllo')).toBe("run 'héllo'");
  });

  it('quotes a first word that would read as an assignment', () => {
    expect(line('FOO=bar', 'x=y')).toBe("'FOO=bar' x=y");
  });

  it('shows hidden characters as ANSI-C escapes', () => {
    expect(line('run', 'a\nb')).toBe("run $'a\\nb'");
    expect(line('run', 'a\tb')).toBe("run $'a\\tb'");
    expect(line('run', 'a\r')).toBe("run $'a\\r'");
    expect(line('run', 'file\u202egpj.exe')).toBe("run $'file\\u202egpj.exe'");
    expect(line('run', 'a\u200bb')).toBe("run $'a\\u200bb'");
    expect(line('run', '\u001b[31mred')).toBe("run $'\\x1b[31mred'");
    expect(line('run', 'it\'s\n"x" \\')).toBe(`run $'it\\'s\\n"x" \\\\'`);
    expect(line('run', 'no\u00a0break')).toBe("run $'no\\u00a0break'");
    expect(line('run', 'tag\u{e0041}')).toBe("run $'tag\\U000e0041'");
    expect(line('run', '\u0085')).toBe("run $'\\u0085'");
    expect(line('ev\u2066il')).toBe("$'ev\\u2066il'");
  });

  it('writes the bracket of one of our tags as an escape, so no live tag reaches a screen', () => {
    expect(line('run', '</garuda_note>')).toBe("run $'\\x3c/garuda_note>'");
    expect(line('run', 'x\uff1c/mcp_result>')).toBe("run $'x\\uff1c/mcp_result>'");
    expect(line('</mcp_result>')).toBe("$'\\x3c/mcp_result>'");
    expect(line('run', '< / Garuda-Note >', "it's")).toBe(
      "run $'\\x3c / Garuda-Note >' 'it'\\''s'",
    );
    // Other brackets stay as they are.
    expect(line('sh', '-c', 'cat < in > out')).toBe("sh -c 'cat < in > out'");
    expect(line('run', '<div>')).toBe("run '<div>'");
  });

  it('never carries a live tag, whatever the input (property)', () => {
    const bracket = fc.constantFrom(
      '<',
      '\uff1c',
      '\ufe64',
      '\u2329',
      '\u3008',
      '/',
      ' ',
      '\u200b',
    );
    const piece = fc.oneof(
      bracket,
      fc.constantFrom('garuda_note', 'mcp_result', 'ｍｃｐ_result', '>'),
    );
    const word = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 4 }), (c, a) => {
        const out = commandLine({ command: c, args: a });
        expect(neutralizeTags(out)).toBe(out);
      }),
      { numRuns: 500 },
    );
  });

  it('stays on one line without hidden characters, whatever the input (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.array(fc.string({ unit: 'binary' })),
        (c, a) => {
          const out = commandLine({ command: c, args: a });
          expect(out).not.toMatch(/[\p{C}\u2028\u2029\u00a0\u200b]/u);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('runs the same argv when pasted into bash (property)', () => {
    const word = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\0'));
    const ascii = fc
      .string({ unit: 'binary-ascii', maxLength: 12 })
      .filter((s) => !s.includes('\0'));
    const samples = fc.sample(fc.array(fc.oneof(word, ascii), { minLength: 1, maxLength: 6 }), 60);
    samples.push(['a\nb', "it's", 'x\u202ey', '', ' ', '\u001b[2J', '$(id)', '`id`', '\\', "'"]);
    samples.push(['</garuda_note>', '\uff1c/mcp_result>', "it's <mcp_result>", '< garuda_note']);
    // One bash for all samples: each line prints its argument count, then the arguments.
    const script = samples
      .map(
        (args) =>
          `set -- ${commandLine({ command: 'x', args }).slice(2)}; printf '%s\\0' "$#" "$@"`,
      )
      .join('\n');
    const out = execFileSync('bash', ['-c', script], {
      env: { LC_ALL: 'C.UTF-8', PATH: process.env.PATH },
      encoding: 'utf8',
    }).split('\0');
    let at = 0;
    for (const args of samples) {
      const count = Number(out[at]);
      expect(out.slice(at + 1, at + 1 + count)).toEqual(args);
      at += 1 + count;
    }
    expect(at).toBe(out.length - 1);
  });

  it('gives a remote server its URL as it will be used, with hidden characters escaped', () => {
    expect(commandLine({ url: 'https://MCP.example.com/a/../mcp' })).toBe(
      'https://mcp.example.com/mcp',
    );
    expect(commandLine({ url: 'https://аpple.com/' })).toBe('https://xn--pple-43d.com/');
    expect(
      commandLine({
        kind: 'remote',
        type: 'http',
        url: 'not a url\n\u202e',
        headers: {},
        timeoutMs: 1000,
        enabled: true,
      }),
    ).toBe('not\\x20a\\x20url\\n\\u202e');
  });

  it('throws for something that is not a definition', () => {
    expect(() => commandLine(null as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => commandLine({} as never)).toThrow(/command/);
    expect(() => commandLine({ command: 'x', args: 'y' } as never)).toThrow(/args/);
  });
});
