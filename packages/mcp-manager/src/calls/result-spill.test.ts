import { mkdir, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { useTempDir } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { spillHead, spillIfLarge, spillResult } from './result-spill.js';

const tmp = useTempDir('garuda-spill-');

describe('spillResult', () => {
  it('names the file itself, whatever the server and tool are called', async () => {
    const dir = path.join(tmp.path, 'home', 'spill');
    const { file } = await spillResult(
      'text',
      { server: 'a', tool: '../../etc/passwd\u0000\u202e' },
      { dir },
    );
    expect(path.dirname(file)).toBe(dir);
    expect(path.basename(file)).toMatch(/^\d{8}T\d{6}-a-_etc_passwd_-[0-9a-f]{8}\.txt$/);
  });

  it('prunes by count, size and age, and removes nothing that is not a spill file', async () => {
    const dir = path.join(tmp.path, 'spill');
    await mkdir(dir, { mode: 0o700 });
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    let now = Date.parse('2026-12-01T00:00:00Z');
    const place = { dir, maxFiles: 2, maxBytes: 10, now: () => now };
    const spilled: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { file } = await spillResult('abc', { server: 's', tool: `t${i}` }, place);
      await utimes(file, now / 1000, now / 1000);
      spilled.push(path.basename(file));
      now += 1000;
    }
    // At most 2 files: the oldest went.
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', spilled[1], spilled[2]].sort());
    // 10 bytes at most: a 9-byte result leaves room for nothing else.
    const big = await spillResult('123456789', { server: 's', tool: 'big' }, place);
    await utimes(big.file, now / 1000, now / 1000);
    expect((await readdir(dir)).filter((f) => f !== 'notes.txt')).toHaveLength(1);
    // A day later the old one goes by age alone.
    now += 25 * 60 * 60 * 1000;
    await spillResult('a', { server: 's', tool: 'late' }, { dir, now: () => now });
    const left = (await readdir(dir)).filter((f) => f !== 'notes.txt');
    expect(left).toEqual([expect.stringContaining('-s-late-')]);
    expect(await readdir(dir)).toContain('notes.txt');
  });

  it('refuses a spill folder that is a link, and closes one others may read', async () => {
    const real = path.join(tmp.path, 'elsewhere');
    await mkdir(real);
    const linked = path.join(tmp.path, 'spill-link');
    await symlink(real, linked);
    await expect(spillResult('x', { server: 's', tool: 't' }, { dir: linked })).rejects.toThrow(
      /not a folder/,
    );
    const open = path.join(tmp.path, 'open');
    await mkdir(open, { mode: 0o755 });
    await spillResult('x', { server: 's', tool: 't' }, { dir: open });
    expect((await stat(open)).mode & 0o777).toBe(0o700);
  });
});

describe('spillHead and spillIfLarge', () => {
  it('cuts at a line end near the cap, never inside a surrogate pair', () => {
    expect(spillHead('abc', 10)).toBe('abc');
    expect(spillHead(`${'a'.repeat(9)}\n${'b'.repeat(20)}`, 10)).toBe('a'.repeat(9));
    expect(spillHead(`${'a'.repeat(9)}😀`, 10)).toBe('a'.repeat(9));
  });

  it('cuts the body and says so when the file cannot be written', async () => {
    const blocked = path.join(tmp.path, 'file');
    await writeFile(blocked, '');
    const text = `<mcp_result server="s" tool="t">\n${'z'.repeat(50)}\n</mcp_result>`;
    const out = await spillIfLarge(
      text,
      10,
      { server: 's', tool: 't' },
      {
        dir: path.join(blocked, 'spill'),
      },
    );
    expect(out).toMatch(
      /^<mcp_result server="s" tool="t">\nz{10}\n\[The result is 50 characters; the first 10 are above, the rest is cut \(it could not be saved: .+\)\.\]\n<\/mcp_result>$/,
    );
  });
});
