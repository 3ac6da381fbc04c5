// The demo's throwaway world: a folder under the OS temp folder with a Garuda home and a
// project, the config files that bring the two servers, the OAuth server behind the remote one,
// and a TCP listener for the escape attempt to reach for. `cleanup()` undoes all of it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's stdio server, and the user's remote server. */
export const LOCAL = 'files';
export const REMOTE = 'remote';

/** Everything the demo set up, and how to take it down. */
export interface DemoWorld {
  /** The throwaway folder (symlinks resolved); everything below is inside it. */
  readonly dir: string;
  readonly root: string;
  readonly home: string;
  /** The file the demo server reads its tool set from when it starts (`normal` or `changed`). */
  readonly modeFile: string;
  /** A fake token in the Garuda home, for the escape attempt to try to read. */
  readonly secretFile: string;
  /** The remote server's MCP endpoint (OAuth-protected). */
  readonly remoteUrl: URL;
  /** A port on 127.0.0.1 that accepts connections, for the escape attempt to try to reach. */
  readonly port: number;
  /** Folders under /tmp the sandboxed server must still see. */
  readonly sandboxReadPaths: readonly string[];
  /** Stops the OAuth server and the listener, and removes the folder. Safe to call twice. */
  cleanup(): Promise<void>;
}

/** What {@link createDemoWorld} needs from the fixtures chunk. */
export interface WorldFixtures {
  startOAuthFixture(): Promise<{ readonly url: URL; close(): Promise<void> }>;
}

/**
 * Where the demo's stdio server is: `demo-server.js` beside the built CLI (dist/), or, when this
 * file runs from source (tests), in the package's dist.
 */
function demoServerScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, 'demo-server.js'),
    path.join(here, '..', '..', 'dist', 'demo-server.js'),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined) {
    throw new Error(
      `the demo server is missing (looked for ${candidates.join(' and ')}); build the CLI first`,
    );
  }
  return found;
}

/**
 * Folders the sandboxed server must still see although they are under /tmp (each server gets a
 * fresh, empty /tmp): the CLI and the SDK it runs on, when installed there, and the demo's
 * folder, so that a write outside the project meets a read-only file system instead of a private
 * /tmp that silently takes it.
 */
async function tmpReadPaths(script: string, dir: string): Promise<string[]> {
  const paths = [dir, await realpath(path.dirname(path.dirname(script)))];
  try {
    const sdk = await realpath(fileURLToPath(import.meta.resolve('@modelcontextprotocol/server')));
    const marker = `${path.sep}node_modules${path.sep}`;
    const index = sdk.indexOf(marker);
    if (index !== -1) paths.push(sdk.slice(0, index + marker.length - 1));
  } catch {
    // Not resolvable from here: the server then fails to start, with a clear stderr line.
  }
  return [...new Set(paths)].filter((folder) => folder === '/tmp' || folder.startsWith('/tmp/'));
}

function listen(signal: AbortSignal): Promise<Server> {
  const server = createServer((socket) => socket.end());
  return new Promise<Server>((resolve, reject) => {
    const onAbort = () => {
      server.close();
      reject(new Error('interrupted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(server);
    });
  });
}

function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (server === undefined || !server.listening) return resolve();
    server.close(() => resolve());
  });
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Creates the throwaway world under `tmpdir`. On a failure part-way, whatever was made is
 * removed before the error is thrown.
 *
 * @param fixtures - The OAuth server to put behind the remote server.
 * @param options - `tmpdir`: where the folder goes; `signal`: stops the setup.
 * @returns The world; call `cleanup()` when done.
 * @throws Error when the demo server is not built, or the setup fails or is aborted.
 */
export async function createDemoWorld(
  fixtures: WorldFixtures,
  options: { readonly tmpdir?: string; readonly signal: AbortSignal },
): Promise<DemoWorld> {
  const script = demoServerScript();
  const dir = await realpath(
    await mkdtemp(path.join(options.tmpdir || os.tmpdir(), 'garuda-demo-')),
  );
  let oauth: { readonly url: URL; close(): Promise<void> } | undefined;
  let listener: Server | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await oauth?.close();
      await closeServer(listener);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    })());
  try {
    const root = path.join(dir, 'project');
    const home = path.join(dir, 'home', '.garuda');
    // A project as a repository would be, with the git folders the sandbox protects.
    await mkdir(path.join(root, '.garuda'), { recursive: true });
    await mkdir(path.join(root, '.git', 'hooks'), { recursive: true });
    await writeFile(path.join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    await mkdir(home, { recursive: true, mode: 0o700 });
    const modeFile = path.join(root, 'server-version');
    await writeFile(modeFile, 'normal\n');
    const secretFile = path.join(home, 'demo-token');
    await writeFile(secretFile, 'demo-token-not-a-real-secret\n', { mode: 0o600 });

    oauth = await fixtures.startOAuthFixture();
    listener = await listen(options.signal);
    const port = (listener.address() as { port: number }).port;

    await writeFile(
      path.join(root, '.garuda', 'mcp.json'),
      json({
        servers: {
          // Declared destructive: under any approval mode, each of its calls asks.
          [LOCAL]: {
            command: process.execPath,
            args: [script, '--mode-file', modeFile],
            capabilities: ['write', 'irreversible'],
          },
        },
      }),
    );
    await writeFile(
      path.join(home, 'mcp.json'),
      // Declared read-only by you: under the demo's "balanced" mode its calls run without asking.
      json({ servers: { [REMOTE]: { url: oauth.url.href, capabilities: ['read'] } } }),
    );
    return {
      dir,
      root,
      home,
      modeFile,
      secretFile,
      remoteUrl: oauth.url,
      port,
      sandboxReadPaths: await tmpReadPaths(script, dir),
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
