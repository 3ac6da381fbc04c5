import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPE_ATTEMPTS } from '../fixtures/tools.mjs';
import { NORMAL_TOOL_NAMES, type EscapeReport } from './fixture-server.js';
import { tempDir, type TempDir } from './temp-dir.js';
import { connectStdio, textOf, type StdioConnection } from './test-support.js';

describe('escape mode (unsandboxed here: the attempts succeed)', () => {
  let base: TempDir;
  let c: StdioConnection;
  let listener: Server;
  let port: number;
  const paths = { root: '', outside: '', writePath: '', secretFile: '' };

  beforeAll(async () => {
    base = await tempDir('garuda-escape-');
    paths.root = join(base.path, 'project');
    paths.outside = join(base.path, 'outside.txt');
    paths.writePath = join(base.path, 'granted');
    paths.secretFile = join(base.path, 'home', '.ssh', 'id_rsa');
    await mkdir(paths.root);
    await mkdir(paths.writePath);
    await mkdir(join(base.path, 'home', '.ssh'), { recursive: true });
    await writeFile(paths.secretFile, 'FAKE PRIVATE KEY for the escape fixture\n');
    await writeFile(join(base.path, 'home', '.ssh', 'known_hosts'), '');
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
    c = await connectStdio('escape');
  });

  afterAll(async () => {
    await c?.close();
    await new Promise((resolve) => listener?.close(resolve));
    await base?.cleanup();
  });

  const escape = async (args: Record<string, unknown>): Promise<EscapeReport> => {
    const r = await c.client.callTool({ name: 'escape', arguments: args });
    expect(r.isError).toBeFalsy();
    return JSON.parse(textOf(r)) as EscapeReport;
  };

  it('lists the normal tools plus escape', async () => {
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual([...NORMAL_TOOL_NAMES, 'escape']);
  });

  it('reports every attempt, and each one worked', async () => {
    const report = await escape({ ...paths, netHost: '127.0.0.1', netPort: port });
    expect(Object.keys(report)).toEqual(ESCAPE_ATTEMPTS);
    for (const name of ESCAPE_ATTEMPTS) {
      if (name === 'userNamespace') continue; // depends on the host, see below
      expect(report[name], name).toMatchObject({ ok: true });
    }
    expect(existsSync(join(paths.root, 'garuda-escape-root.txt'))).toBe(true);
    expect(existsSync(paths.outside)).toBe(true);
    expect(existsSync(join(paths.root, '.garuda', 'garuda-escape.txt'))).toBe(true);
    expect(existsSync(join(paths.root, '.git', 'hooks', 'garuda-escape-hook'))).toBe(true);
    expect(readFileSync(join(paths.root, '.git', 'config'), 'utf8')).toContain('garuda escape');
    expect(existsSync(join(paths.writePath, 'garuda-escape-writepath.txt'))).toBe(true);
    expect(report.readSecret.detail).toContain('FAKE PRIVATE KEY');
    expect(report.listSecretDir.detail).toBe('id_rsa, known_hosts');
    expect(report.connect.detail).toBe(`connected to 127.0.0.1:${port}`);

    const userns = report.userNamespace;
    expect(typeof userns.ok).toBe('boolean');
    if (!userns.ok) expect(userns.code).toMatch(/^(SKIPPED|EXIT_\d+|SIGNAL_\w+|E[A-Z]+)$/);
  });

  it('never throws: failures and missing inputs are reported per attempt', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));

    const report = await escape({
      root: join(base.path, 'project'),
      outside: join(base.path, 'no-such-dir', 'outside.txt'),
      netHost: '127.0.0.1',
      netPort: deadPort,
    });
    expect(Object.keys(report)).toEqual(ESCAPE_ATTEMPTS);
    expect(report.writeRoot.ok).toBe(true);
    expect(report.writeOutside).toMatchObject({ ok: false, code: 'ENOENT' });
    expect(report.writePath).toMatchObject({ ok: false, code: 'SKIPPED' });
    expect(report.readSecret).toMatchObject({ ok: false, code: 'SKIPPED' });
    expect(report.listSecretDir).toMatchObject({ ok: false, code: 'SKIPPED' });
    expect(report.connect).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
  });
});
