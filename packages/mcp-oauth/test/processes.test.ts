// Real processes against one real auth file: the lock and the atomic writes themselves are
// tested in @garuda/mcp-trust; these check that the store uses them for every change.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { runTogether } from '@garuda/test-utils';
import { useChildScript } from '@garuda/test-utils/build-for-children';
import { describe, expect, it } from 'vitest';
import { AuthStore } from '../src/auth-store.js';
import { CHILD_SCRIPT, packageDir } from './build-for-children.js';
import { useTempDir } from './helpers.js';

const home = useTempDir('garuda-auth-procs-');
// Registered after the folder's hooks, so its children are killed before the folder goes.
const children = useChildScript(packageDir, CHILD_SCRIPT);

describe('two processes signing in at once', () => {
  it('keeps every entry both processes wrote', async () => {
    const file = path.join(home.path, 'home', 'mcp-auth.json');
    const results = await runTogether([
      children.start(['writer', file, 'a', '60']),
      children.start(['writer', file, 'b', '60']),
    ]);
    for (const { code, stderr } of results)
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });

    const rows = await new AuthStore(file).list();
    expect(rows).toHaveLength(120);
    for (const prefix of ['a', 'b']) {
      for (let i = 0; i < 60; i++) {
        const entry = await new AuthStore(file).get({
          scope: 'user',
          name: `${prefix}${i}`,
          url: `https://${prefix}${i}.example/mcp`,
        });
        expect(entry?.tokens?.access_token).toMatch(new RegExp(`^at-${prefix}-${i}-\\d+$`));
      }
    }
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('a process killed while writing', () => {
  it('leaves the old or the new file, never half of one', async () => {
    const file = path.join(home.path, 'mcp-auth.json');
    const store = new AuthStore(file, { lockTimeoutMs: 30_000, lockStaleMs: 2_000 });
    await store.update({ scope: 'user', name: 'seed', url: 'https://seed.example/mcp' }, () => ({
      port: 1,
    }));
    for (let round = 0; round < 2; round++) {
      const child = children.start(['hammer', file, String(256 * 1024)]);
      await child.line(/^wrote \d+$/);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 80)));
      child.proc.kill('SIGKILL');
      await child.exit;
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as {
        entries: Record<string, { tokens?: { access_token: string } }>;
      };
      expect(data.entries['user::seed::https://seed.example/mcp']).toBeDefined();
      expect(data.entries['user::big::https://big.example/mcp']?.tokens?.access_token).toHaveLength(
        256 * 1024,
      );
    }
    // A lock the dead child may have left is taken over once stale.
    await store.update({ scope: 'user', name: 'after', url: 'https://after.example/mcp' }, () => ({
      port: 2,
    }));
    expect((await store.list()).map((r) => r.name)).toEqual(['after', 'big', 'seed']);
  });
});
