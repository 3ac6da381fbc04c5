// server-everything in its Streamable HTTP mode, as a plain child process outside any sandbox
// (the user's own server on this machine), listening on 127.0.0.1 at a port the system chose.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_JS } from './interop-world.js';

const LOOPBACK_ONLY = fileURLToPath(new URL('../fixtures/listen-on-loopback.mjs', import.meta.url));

/** A running server-everything over HTTP. */
export interface EverythingHttp {
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Ends the process and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `node dist/index.js streamableHttp` with PORT=0 and waits for the line that names the
 * port (at most `timeoutMs`).
 *
 * @param options.mark - An extra argument (ignored by the server) that finds the process later.
 * @param options.env - Variables of its environment, besides PATH and PORT.
 */
export function startEverythingHttp(options: {
  readonly mark: string;
  readonly env: Record<string, string>;
  readonly timeoutMs?: number;
}): Promise<EverythingHttp> {
  const child = spawn(
    process.execPath,
    ['--import', LOOPBACK_ONLY, SERVER_JS.everything, 'streamableHttp', options.mark],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PORT: '0', ...options.env },
      // It logs every request on stdout.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  // 'error' without 'exit' when it could not be started at all.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<EverythingHttp>((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`server-everything over HTTP ${why}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail('did not listen in time'), options.timeoutMs ?? 60_000);
    child.once('exit', (code, signal) => fail(`ended before it listened (${code ?? signal})`));
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      // Read to the end (a full pipe would block it), keep only what comes before the line.
      if (settled) return;
      stderr += chunk;
      const match = /^interop: listening on 127\.0\.0\.1:(\d+)$/m.exec(stderr);
      if (match === null) return;
      settled = true;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${match[1]}/mcp`, stop });
    });
  });
}
