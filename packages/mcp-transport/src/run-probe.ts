import { spawn } from 'node:child_process';

/** How a probe ended. @internal */
export type ProbeResult =
  | {
      readonly kind: 'exit';
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: 'spawn-error'; readonly error: NodeJS.ErrnoException }
  | { readonly kind: 'timeout' };

/** Output kept per stream: the first lines are what matters, a chatty program must not grow us. */
const MAX_OUTPUT_BYTES = 16 * 1024;

/**
 * Runs a short check program (no shell, no stdin) and reports how it ended. Never rejects.
 * After `timeoutMs` the program and its process group are killed (SIGKILL) and the result is
 * `timeout`. @internal
 *
 * @param command - Absolute path of the program.
 * @param args - Its arguments.
 * @param options - `timeoutMs`: the limit; `env`: its whole environment.
 * @returns How it ended, with the start of its output.
 */
export function runProbe(
  command: string,
  args: readonly string[],
  options: { readonly timeoutMs: number; readonly env: Readonly<Record<string, string>> },
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, [...args], {
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...options.env },
        windowsHide: true,
        // Its own process group, so a timeout stops whatever it started too.
        detached: true,
      });
    } catch (error) {
      // spawn throws synchronously only for invalid arguments (e.g. a NUL byte).
      resolve({ kind: 'spawn-error', error: error as NodeJS.ErrnoException });
      return;
    }

    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      finish({ kind: 'timeout' });
    }, options.timeoutMs);

    const collect = (stream: NodeJS.ReadableStream | null): (() => string) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream?.on('data', (chunk: Buffer) => {
        if (size >= MAX_OUTPUT_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_OUTPUT_BYTES - size));
        size += chunk.length;
      });
      return () => Buffer.concat(chunks).toString('utf8');
    };
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);

    child.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'spawn-error', error }));
    child.on('close', (code, signal) =>
      finish({ kind: 'exit', code, signal, stdout: stdout(), stderr: stderr() }),
    );
  });
}
