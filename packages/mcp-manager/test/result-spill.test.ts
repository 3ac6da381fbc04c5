// Large results through the facade: over the server's maxResultChars the whole cleaned result
// goes to a 0600 file under <home>/spill (0700), and the model reads the head, the size and
// the path inside the wrapper.
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

describe('spill files', () => {
  it('spills a result over maxResultChars and shows its head, size and file', async () => {
    const { mcp } = await ws.startUserServers({
      tools: fixture('normal', ws.mark, { maxResultChars: 2000 }),
    });
    const line = `${'x'.repeat(99)}\n`;
    const long = line.repeat(60).trimEnd();
    const result = await mcp.call('mcp__tools__echo', { text: `\u001b[31m${long}` });
    const [open, ...rest] = result.text.split('\n');
    expect(open).toBe('<mcp_result server="tools" tool="echo">');
    expect(rest.at(-1)).toBe('</mcp_result>');
    const note = rest.at(-2) ?? '';
    expect(note).toMatch(/^\[The result is 5\s?999 characters; the first 1\s?999 are above\./);
    // The head is cut at a line end, within the cap.
    const head = rest.slice(0, -2).join('\n');
    expect(head.length).toBeLessThanOrEqual(2000);
    expect(head.endsWith('x')).toBe(true);

    const dir = path.join(ws.home, 'spill');
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const file = path.join(dir, files[0] ?? '');
    expect(note).toContain(file);
    expect(files[0]).toMatch(/^\d{8}T\d{6}-tools-echo-[0-9a-f]{8}\.txt$/);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The whole result, cleaned (the escape sequence is gone).
    expect(await readFile(file, 'utf8')).toBe(long);

    // A result within the cap is not spilled.
    const short = await mcp.call('mcp__tools__echo', { text: 'short' });
    expect(short.text).toBe('<mcp_result server="tools" tool="echo">\nshort\n</mcp_result>');
    expect(await readdir(dir)).toHaveLength(1);
  });
});
