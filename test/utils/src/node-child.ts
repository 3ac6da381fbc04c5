import {
  spawn,
  type ChildProcessWithoutNullStreams,
  type SpawnOptionsWithoutStdio,
} from 'node:child_process';

/** How a child process ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A Node process a test started, with what it printed. */
export interface NodeChild {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Resolves once the process has exited and its output is all read. */
  readonly exit: Promise<ChildExit>;
  /**
   * The first stdout line that matches (printed before this call or after); rejects when the
   * process ends without one, or after `timeoutMs` (a safety net, default 60 s).
   */
  line(match: RegExp, timeoutMs?: number): Promise<string>;
  /** Everything it printed to stdout so far. */
  stdout(): string;
  /** Everything it printed to stderr so far. */
  stderr(): string;
}

/**
 * Runs `node <args…>` with pipes for stdin, stdout and stderr, and reads its output as it comes.
 *
 * @param args - The script and its arguments.
 * @param options - Spawn options (`cwd`, `env`, `uid`…).
 * @returns The child.
 * @example
 * const child = startNodeChild([script, entry, file]);
 * await child.line(/^ready$/);
 * child.proc.stdin.write('go\n');
 * expect((await child.exit).code).toBe(0);
 */
export function startNodeChild(
  args: readonly string[],
  options: SpawnOptionsWithoutStdio = {},
): NodeChild {
  const proc = spawn(process.execPath, args, { ...options, stdio: 'pipe' });
  let out = '';
  let err = '';
  let partial = '';
  const lines: string[] = [];
  const waiters = new Set<{ match: RegExp; resolve: (line: string) => void }>();
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    partial += chunk;
    let nl: number;
    while ((nl = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      lines.push(line);
      for (const w of waiters) if (w.match.test(line)) w.resolve(line);
    }
  });
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exit = new Promise<ChildExit>((resolve) =>
    proc.once('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    exit,
    stdout: () => out,
    stderr: () => err,
    line: (match, timeoutMs = 60_000) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines.find((line) => match.test(line));
        if (seen !== undefined) return resolve(seen);
        const waiter = {
          match,
          resolve: (line: string) => {
            settle();
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          settle();
          reject(new Error(`no line matching ${match} within ${timeoutMs} ms; stderr: ${err}`));
        }, timeoutMs);
        const settle = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        waiters.add(waiter);
        void exit.then(({ code, signal }) => {
          if (!waiters.has(waiter)) return;
          settle();
          reject(new Error(`child exited (${code ?? signal}) before ${match}; stderr: ${err}`));
        });
      }),
  };
}

/**
 * The Node processes of one test file, so that a test can stop every one it started (and only
 * those, by their own handles) when it ends.
 *
 * @example
 * const children = new NodeChildren();
 * afterEach(() => children.killAll());
 * const child = children.start([script]);
 */
export class NodeChildren {
  readonly #running = new Set<NodeChild>();

  /** {@link startNodeChild}, remembered for {@link NodeChildren.killAll}. */
  start(args: readonly string[], options?: SpawnOptionsWithoutStdio): NodeChild {
    const child = startNodeChild(args, options);
    this.#running.add(child);
    void child.exit.then(() => this.#running.delete(child));
    return child;
  }

  /** Sends SIGKILL to every child still running. */
  killAll(): void {
    for (const { proc } of this.#running) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    }
    this.#running.clear();
  }
}

/** How a child of {@link runTogether} ended, with all it printed. */
export interface ChildResult extends ChildExit {
  stdout: string;
  stderr: string;
}

/**
 * Lets children that wait for "go" on stdin start at the same moment, so that what they do races
 * each other: waits until each has printed `ready`, sends each `go` (and ends its stdin), and
 * waits for each to end.
 *
 * @param children - Children that print a line `ready`, then wait for a line on stdin.
 * @returns How each ended, in the same order.
 */
export async function runTogether(children: readonly NodeChild[]): Promise<ChildResult[]> {
  await Promise.all(children.map((c) => c.line(/^ready$/)));
  for (const c of children) c.proc.stdin.end('go\n');
  return Promise.all(
    children.map(async (c) => ({ ...(await c.exit), stdout: c.stdout(), stderr: c.stderr() })),
  );
}
