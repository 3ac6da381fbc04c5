// Proofs, with real bubblewrap and real processes, of what a server can connect to: Unix sockets
// on the file system, a container engine's socket, and this machine's network.
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { CONNECT_PROBE, bwrapCases, run, unixServers } from './sandbox-test-support.js';

const { sandbox, available, skipNotice, temp, setup } = await bwrapCases();
if (skipNotice !== undefined) console.warn(skipNotice);
afterAll(() => temp.cleanup());

describe.skipIf(!available)('bubblewrap sandbox (real processes)', () => {
  it('reaches a Unix socket on the file system unless it is hidden (a read-only mount does not stop connect)', async () => {
    const { home, policy } = setup();
    const open = path.join(temp.make('sock'), 'open.sock');
    const hidden = path.join(home, '.netrc'); // a hidden name, as a socket
    const close = await unixServers([open, hidden], 'hi');
    try {
      const result = await run(
        buildSandbox([process.execPath, '-e', CONNECT_PROBE, open, hidden], policy, sandbox),
      );
      expect(JSON.parse(result.stdout)).toEqual(['data:hi', 'ECONNREFUSED']);
    } finally {
      await close();
    }
  });

  // /run/user is one of the hidden socket places (it holds the session's D-Bus and agents).
  it.runIf(existsSync('/run/user'))(
    "reaches a container engine's socket in a hidden socket place only as engineSocket, without network",
    async () => {
      const { home, policy } = setup();
      const mark = `${process.pid}-${Date.now()}`;
      const engine = `/run/user/garuda-test-engine-${mark}.sock`;
      const other = `/run/user/garuda-test-other-${mark}.sock`;
      const close = await unixServers([engine, other], 'pong');
      try {
        const argv = [process.execPath, '-e', CONNECT_PROBE, engine, other];
        const without = await run(buildSandbox(argv, policy, sandbox));
        expect(JSON.parse(without.stdout)).toEqual(['ENOENT', 'ENOENT']);
        const given = await run(
          buildSandbox(argv, { ...policy, network: false, engineSocket: engine }, sandbox),
        );
        expect(JSON.parse(given.stdout)).toEqual(['data:pong', 'ENOENT']);
        // A credential path or Garuda's home is never handed out as a socket.
        const fake = path.join(home, '.ssh', 'agent.sock');
        mkdirSync(path.dirname(fake));
        const closeAgent = await unixServers([fake], '');
        try {
          expect(() => buildSandbox(argv, { ...policy, engineSocket: fake }, sandbox)).toThrow(
            /engineSocket.*hidden credential path/,
          );
        } finally {
          await closeAgent();
        }
        // Nothing there: nothing to show, no error (the engine's own command says it is down).
        expect(() =>
          buildSandbox(argv, { ...policy, engineSocket: '/run/garuda-no-such.sock' }, sandbox),
        ).not.toThrow();
        expect(() =>
          buildSandbox(argv, { ...policy, engineSocket: path.join(home) }, sandbox),
        ).toThrow(/not a Unix socket/);
      } finally {
        await close();
      }
    },
  );

  describe('network', () => {
    let server: net.Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      server = undefined;
    });

    async function listen(): Promise<{ port: number; connections: () => number }> {
      let count = 0;
      server = net.createServer((socket) => {
        count += 1;
        socket.end('pong');
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      return { port, connections: () => count };
    }

    const client = (port: number): string[] => [
      process.execPath,
      '-e',
      `require('node:net').connect(${port}, '127.0.0.1')
         .on('data', (d) => { process.stdout.write('data:' + d); process.exit(0); })
         .on('error', (e) => { process.stdout.write(e.code); process.exit(0); });`,
    ];

    it('cannot reach a server on this machine without network', async () => {
      const { policy } = setup();
      const { port, connections } = await listen();
      const result = await run(buildSandbox(client(port), policy, sandbox));
      expect(result.stdout).toBe('ECONNREFUSED');
      expect(connections()).toBe(0);
    });

    it('reaches it with network: true', async () => {
      const { policy } = setup();
      const { port, connections } = await listen();
      const result = await run(buildSandbox(client(port), { ...policy, network: true }, sandbox));
      expect(result.stdout).toBe('data:pong');
      expect(connections()).toBe(1);
    });
  });
});
