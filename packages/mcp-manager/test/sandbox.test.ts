// The sandbox's limits, through the manager: the `escape` fixture tries every usual way out.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxOutcomes, type EscapeReport } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { HAS_SANDBOX, SANDBOX, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();
/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes(SANDBOX.kind);
let listener: Server;
let port: number;
beforeEach(async () => {
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
  ws.defer(() => new Promise((resolve) => listener.close(() => resolve())));
});

describe.skipIf(!HAS_SANDBOX)('sandbox limits through the manager', () => {
  it('writes only in the root and write paths; .garuda, garuda home and the network stay closed', async () => {
    const granted = ws.path('granted');
    await mkdir(granted);
    const secret = path.join(ws.home, 'secret-token');
    await writeFile(secret, 'do not read me');
    const { prompter, mcp } = await ws.startProjectServers(
      {
        closed: fixture('escape', ws.mark, { writePaths: [granted] }),
        open: fixture('escape', ws.mark, { network: true }),
      },
      'once',
      { rules: { allow: ['mcp.closed.*', 'mcp.open.*'] } },
    );

    expect(prompter.consents.map((r) => [r.server, r.sandbox, r.network])).toEqual([
      ['closed', { kind: SANDBOX.kind }, false],
      ['open', { kind: SANDBOX.kind }, true],
    ]);
    expect(mcp.status().map((r) => [r.name, r.sandbox, r.network])).toEqual([
      ['closed', { kind: SANDBOX.kind }, { kind: 'local', allowed: false }],
      ['open', { kind: SANDBOX.kind }, { kind: 'local', allowed: true }],
    ]);

    // Outside the root and off /tmp (bubblewrap's /tmp is private and in memory, so a write under
    // the host's /tmp would land there and vanish; Seatbelt's is the machine's, and writable):
    // next to this test file.
    const outside = (server: string) =>
      path.join(path.dirname(fileURLToPath(import.meta.url)), `escape-${server}-${ws.mark}.txt`);
    const escape = async (server: string, extra: Record<string, unknown>) => {
      const result = await mcp.call(`mcp__${server}__escape`, {
        root: ws.root,
        outside: outside(server),
        secretFile: secret,
        netHost: '127.0.0.1',
        netPort: port,
        ...extra,
      });
      return JSON.parse(unwrap(result.text)) as EscapeReport;
    };

    const closed = await escape('closed', { writePath: granted });
    expect(closed.writeRoot.ok).toBe(true);
    expect(closed.writePath.ok).toBe(true);
    expect(closed.writeOutside).toMatchObject({ ok: false, code: IS.readOnly.code });
    expect(existsSync(outside('closed'))).toBe(false);
    expect(existsSync(path.join(ws.root, 'garuda-escape-root.txt'))).toBe(true);
    expect(existsSync(path.join(granted, 'garuda-escape-writepath.txt'))).toBe(true);
    expect(closed.writeGaruda.ok).toBe(false);
    expect(closed.readSecret.ok).toBe(false);
    expect(closed.connect.ok).toBe(false);

    const open = await escape('open', {});
    expect(open.connect.ok).toBe(true);
    expect(open.writeOutside.ok).toBe(false);
    expect(existsSync(outside('open'))).toBe(false);
    expect(open.writeGaruda.ok).toBe(false);
  });
});

// bubblewrap gives each server an empty /tmp of its own; Seatbelt (macOS) shares the machine's.
describe.runIf(HAS_SANDBOX && IS.privateTmp)('a server the sandbox cannot see', () => {
  it('fails with the note before the stderr excerpt, so a capped reason keeps what to do', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'garuda-hidden-server-'));
    try {
      const server = path.join(dir, 'server.mjs');
      await writeFile(server, 'export {};\n');
      const { mcp } = await ws.startUserServers(
        { hidden: { command: process.execPath, args: [server] } },
        { sandbox: { readPaths: [] } },
      );
      const [row] = mcp.status();
      expect(row?.state).toBe('failed');
      expect(row?.detail).toMatch(
        /\(note: \S+server\.mjs is under \/tmp, which the sandbox replaces with an empty folder: add its folder to the sandbox's read paths \(the sandbox.readPaths option\)\); stderr: /,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(HAS_SANDBOX && !IS.privateTmp)('a server under /tmp, which Seatbelt shows', () => {
  it('runs: its failure is its own, with no note about /tmp', async () => {
    // /tmp itself (os.tmpdir() is under /var/folders on macOS): where bubblewrap would hide it.
    const dir = await mkdtemp('/tmp/garuda-shown-server-');
    try {
      const server = path.join(dir, 'server.mjs');
      await writeFile(
        server,
        "process.stderr.write('the server under /tmp ran\\n');\nprocess.exit(3);\n",
      );
      const { mcp } = await ws.startUserServers(
        { shown: { command: process.execPath, args: [server] } },
        { sandbox: { readPaths: [] } },
      );
      const [row] = mcp.status();
      expect(row?.state).toBe('failed');
      expect(row?.detail).toContain('; stderr: the server under /tmp ran');
      expect(row?.detail).not.toContain('(note:');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
