// The whole chain for a local server: buildSandbox → ProcessTransport → an MCP client, with the
// `escape` fixture trying every way out. Runs in this machine's OS sandbox: bubblewrap on Linux
// (CI installs it), Seatbelt on macOS (the twin); skipped loudly elsewhere, and
// GARUDA_REQUIRE_SANDBOX=1 makes "no sandbox" a failure.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { fixtureCommand, type EscapeReport } from '@garuda/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from './build-sandbox.js';
import { detectSandbox } from './detect-sandbox.js';
import { ProcessTransport } from './process-transport.js';
import { SANDBOX_REQUIRED, TempDirs, sandboxOfPlatform } from '../test/support/sandbox.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const sandbox = await detectSandbox({ searchPath: process.env.PATH });
if (sandbox.kind === 'none') {
  console.warn(
    `\n*** no OS sandbox here: ${sandbox.reason ?? sandbox.kind}; the sandboxed-server tests are SKIPPED ***\n`,
  );
}

describe('sandbox availability for servers', () => {
  it.runIf(SANDBOX_REQUIRED)(
    'has the OS sandbox of this platform when it is required (bubblewrap on Linux, Seatbelt on macOS)',
    () => {
      expect({ platform: process.platform, kind: sandbox.kind }).toEqual({
        platform: process.platform,
        kind: sandboxOfPlatform(process.platform) ?? 'an OS sandbox, which this platform lacks',
      });
    },
  );
});

describe.skipIf(sandbox.kind === 'none')(
  sandbox.kind === 'seatbelt'
    ? 'a sandboxed MCP server (escape fixture, real Seatbelt: twin of the bubblewrap run)'
    : 'a sandboxed MCP server (escape fixture, real bubblewrap)',
  () => {
    const temp = new TempDirs();
    let listener: Server;
    let port = 0;
    let connections = 0;

    afterAll(async () => {
      temp.cleanup();
      await new Promise((r) => listener?.close(r));
    });

    async function listen(): Promise<void> {
      if (listener) return;
      listener = createServer((socket) => {
        connections++;
        socket.end();
      });
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
      port = (listener.address() as { port: number }).port;
    }

    async function escape(network: boolean): Promise<{
      report: EscapeReport;
      root: string;
      outside: string;
      granted: string;
      home: string;
    }> {
      await listen();
      const base = temp.make('escape');
      const root = path.join(base, 'project');
      const home = path.join(base, 'home');
      const granted = path.join(base, 'granted');
      for (const dir of [
        root,
        home,
        granted,
        path.join(root, '.git', 'hooks'),
        path.join(home, '.ssh'),
      ]) {
        mkdirSync(dir, { recursive: true });
      }
      writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
      const secretFile = path.join(home, '.ssh', 'id_rsa');
      writeFileSync(secretFile, 'PRIVATE KEY');
      const outside = path.join(base, 'outside.txt');

      const { command, args } = fixtureCommand('escape');
      const built = buildSandbox(
        [command, ...args],
        {
          root,
          home,
          garudaHome: path.join(home, '.garuda'),
          writePaths: [granted],
          network,
          env: {},
          baseEnv: { PATH: process.env.PATH, HOME: home },
          // The fixture and its node_modules live in this checkout, which may be under /tmp.
          readPaths: [REPO_ROOT],
        },
        sandbox,
      );
      const transport = new ProcessTransport({
        command: built.command,
        args: built.args,
        env: built.env,
        cwd: built.cwd,
      });
      const client = new Client(
        { name: 'garuda-test', version: '0.0.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      try {
        await client.connect(transport, { timeout: 60_000 });
        const result = await client.callTool({
          name: 'escape',
          arguments: {
            root,
            outside,
            writePath: granted,
            secretFile,
            netHost: '127.0.0.1',
            netPort: port,
          },
        });
        const text = (result.content as { type: string; text: string }[])[0]!.text;
        return { report: JSON.parse(text) as EscapeReport, root, outside, granted, home };
      } finally {
        await client.close();
      }
    }

    it('denies every way out and allows only the root and the write paths', async () => {
      const before = connections;
      const { report, root, outside, granted } = await escape(false);
      expect(report.writeRoot.ok).toBe(true);
      expect(existsSync(path.join(root, 'garuda-escape-root.txt'))).toBe(true);
      expect(report.writePath.ok).toBe(true);
      expect(existsSync(path.join(granted, 'garuda-escape-writepath.txt'))).toBe(true);

      expect(report.writeOutside.ok).toBe(false);
      expect(existsSync(outside)).toBe(false);
      expect(report.writeGaruda.ok).toBe(false);
      expect(existsSync(path.join(root, '.garuda', 'garuda-escape.txt'))).toBe(false);
      expect(report.writeGitHooks.ok).toBe(false);
      expect(existsSync(path.join(root, '.git', 'hooks', 'garuda-escape-hook'))).toBe(false);
      expect(report.appendGitConfig.ok).toBe(false);
      expect(readFileSync(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(report.readSecret.ok).toBe(false);
      expect(
        report.listSecretDir.ok && report.listSecretDir.detail?.includes('id_rsa'),
      ).toBeFalsy();
      expect(report.connect.ok).toBe(false);
      expect(connections).toBe(before);
      expect(report.userNamespace.ok).toBe(false);
      // Linux only: `unshare -U` exists there and must fail; macOS has no user namespaces.
      expect(report.userNamespace.code).toMatch(
        sandbox.kind === 'bwrap' ? /^(EXIT_\d+|SIGNAL_\w+)$/ : /^SKIPPED$/,
      );
    });

    it('network: true opens the network, and nothing else changes', async () => {
      const before = connections;
      const { report } = await escape(true);
      expect(report.connect.ok).toBe(true);
      expect(connections).toBe(before + 1);
      expect(report.writeOutside.ok).toBe(false);
      expect(report.readSecret.ok).toBe(false);
      expect(report.writeGitHooks.ok).toBe(false);
    });
  },
);
