// A file in another client's shape ("mcpServers", "type", a hyphenated name) is edited in that
// shape: a server added lands in its "mcpServers", and every other byte stays.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dir.js';
import { addServer } from './add-server.js';
import { loadConfig } from './load-config.js';
import { removeServer } from './remove-server.js';

const dirs = tempDirs();

describe('editing a file with "mcpServers"', () => {
  it('adds into "mcpServers" and removes from it, keeping the rest as written', async () => {
    const file = path.join(await dirs.create(), 'mcp.json');
    const before =
      '{\n  "mcpServers": {\n    "sequential-thinking": { "type": "stdio", "command": "npx", "args": ["-y", "x@1.0.0"] }\n  }\n}\n';
    await writeFile(file, before);
    await addServer({ file, name: 'my-notes', def: { command: 'notes' }, source: 'user' });
    const after = await readFile(file, 'utf8');
    expect(after).not.toContain('"servers"');
    expect(after).toContain(
      '"sequential-thinking": { "type": "stdio", "command": "npx", "args": ["-y", "x@1.0.0"] }',
    );
    const { servers, problems } = await loadConfig({ userFile: file, env: {} });
    expect(problems).toEqual([]);
    expect(servers.map((s) => s.name)).toEqual(['sequential-thinking', 'my-notes']);

    await removeServer({ file, name: 'my-notes' });
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});
