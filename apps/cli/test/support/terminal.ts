// A terminal session of its own, in which several garuda-mcp commands run one after another.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './paths.js';
import type { RunResult } from './run.js';

/** Where a terminal's commands run: the project folder and the environment of a run. */
export interface TerminalPlace {
  readonly root: string;
  env(extra?: Record<string, string>): Record<string, string>;
}

// The leader: runs each command it is sent (a JSON line) and answers with what it printed.
const LEADER = `
const { spawn } = require('node:child_process');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { id, argv, cwd, env, input } = JSON.parse(line);
  const answer = (result) => process.stdout.write(JSON.stringify({ id, ...result }) + '\\n');
  const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  child.on('error', (error) => answer({ error: String(error) }));
  child.on('close', (code, signal) => answer({ code, signal, stdout, stderr }));
  child.stdin.end(input ?? '');
});
lines.on('close', () => process.exit(0));
`;

/** Commands run in one terminal session of their own (see `CliWorld.terminal`). */
export class CliTerminal {
  readonly #world: TerminalPlace;
  readonly #leader: ChildProcess;
  readonly #waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  #next = 0;
  #buffer = '';

  constructor(world: TerminalPlace) {
    this.#world = world;
    this.#leader = spawn(process.execPath, ['-e', LEADER], {
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    this.#leader.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end: number;
      while ((end = this.#buffer.indexOf('\n')) >= 0) {
        const answer = JSON.parse(this.#buffer.slice(0, end)) as Record<string, unknown>;
        this.#buffer = this.#buffer.slice(end + 1);
        this.#waiting.get(answer.id as number)?.(answer);
      }
    });
  }

  /** The leader's session id (its pid: setsid made it the leader). */
  get id(): number {
    return this.#leader.pid ?? -1;
  }

  /** Runs `garuda-mcp args…` in this terminal to the end (at most `timeoutMs`). */
  run(
    args: readonly string[],
    options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
  ): Promise<RunResult> {
    const id = this.#next++;
    const timeoutMs = options.timeoutMs ?? 120_000;
    return new Promise<RunResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        this.close();
        reject(new Error(`garuda-mcp ${args.join(' ')} did not end within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting.set(id, (answer) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        if (typeof answer.error === 'string') reject(new Error(answer.error));
        else resolve(answer as unknown as RunResult);
      });
      const request = {
        id,
        argv: [process.execPath, BIN, ...args],
        cwd: this.#world.root,
        env: this.#world.env(options.env),
        input: options.input,
      };
      this.#leader.stdin?.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Ends the leader and whatever it still runs (its process group). */
  close(): void {
    const pid = this.#leader.pid;
    if (pid === undefined || this.#leader.exitCode !== null) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
