// Proofs, with the real OS sandbox and real processes, of what a server can connect to: Unix
// sockets on the file system, a container engine's socket, and this machine's network. The same
// tests run bubblewrap on Linux and Seatbelt on macOS (its twin); where the two differ (Linux
// hides known socket places, macOS closes every Unix socket), a test runs on one of them only and
// says so.
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { CONNECT_PROBE, DENIED, osSandboxCases, run, unixServers } from '../test/support/sandbox.js';

const { sandbox, kind, available, suite, is, temp, setup } = await osSandboxCases();

describe.skipIf(!available)(suite, () => {
  it('reaches a Unix socket on the file system, with or without network, only where the sandbox allows it (bubblewrap: unless hidden, as a read-only mount does not stop connect; Seatbelt twin: none, its network rules cover Unix sockets)', async () => {
    const { home, policy } = setup();
    const open = path.join(temp.make('sock'), 'open.sock');
    const hidden = path.join(home, '.netrc'); // a hidden name, as a socket
    const close = await unixServers([open, hidden], 'hi');
    try {
      for (const network of [false, true]) {
        const argv = [process.execPath, '-e', CONNECT_PROBE, open, hidden];
        const result = await run(buildSandbox(argv, { ...policy, network }, sandbox));
        expect(JSON.parse(result.stdout)).toEqual(
          kind === 'bwrap' ? ['data:hi', 'ECONNREFUSED'] : [DENIED, DENIED],
        );
      }
    } finally {
      await close();
    }
  });

  // bubblewrap: /run/user is one of the hidden socket places (it holds the session's D-Bus and
  // agents). Seatbelt: every Unix socket is closed, wherever it is.
  it.runIf(kind === 'seatbelt' || existsSync('/run/user'))(
    "reaches a container engine's socket only as engineSocket, without network",
    async () => {
      const { home, policy } = setup();
      const mark = `${process.pid}-${Date.now()}`;
      const place = kind === 'bwrap' ? '/run/user' : temp.make('engine');
      const engine = path.join(place, `garuda-test-engine-${mark}.sock`);
      const other = path.join(place, `garuda-test-other-${mark}.sock`);
      const closed = kind === 'bwrap' ? 'ENOENT' : DENIED;
      const close = await unixServers([engine, other], 'pong');
      // macOS: named as clients name such sockets, through the /var link (/var/run/docker.sock
      // is /private/var/run/docker.sock); the profile holds the real path.
      const named = (file: string): string => file.replace(/^\/private\/var\//, '/var/');
      try {
        const argv = [process.execPath, '-e', CONNECT_PROBE, named(engine), named(other)];
        const without = await run(buildSandbox(argv, policy, sandbox));
        expect(JSON.parse(without.stdout)).toEqual([closed, closed]);
        const given = await run(
          buildSandbox(argv, { ...policy, network: false, engineSocket: named(engine) }, sandbox),
        );
        expect(JSON.parse(given.stdout)).toEqual(['data:pong', closed]);
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
      expect(result.stdout).toEqual(is.noNetwork);
      expect(connections()).toBe(0);
    });

    it('resolves a name with network: true (Seatbelt: through the DNS resolver it allows)', async () => {
      const { policy } = setup();
      const lookup = [
        process.execPath,
        '-e',
        `require('node:dns').lookup('localhost', (e) => process.stdout.write(e ? e.code : 'ok'))`,
      ];
      const result = await run(buildSandbox(lookup, { ...policy, network: true }, sandbox));
      expect(result).toMatchObject({ stdout: 'ok', code: 0 });
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
