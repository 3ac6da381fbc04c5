// Runs the built garuda-mcp as a subprocess on a throwaway home and project.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectSandbox } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, tempDir, waitFor, type TempDir } from '@garuda/test-utils';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** This checkout. */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** The built command. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** A browser stand-in for --browser. */
export const FETCH_BROWSER = fileURLToPath(
  new URL('./fixtures/fetch-browser.mjs', import.meta.url),
);
/** @modelcontextprotocol/server-everything, a real third-party server. */
export const EVERYTHING = fileURLToPath(
  import.meta
    .resolve('@modelcontextprotocol/server-everything/package.json')
    .replace(/package\.json$/, 'dist/index.js'),
);

/** What a run printed and how it ended. */
export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A throwaway user and project, and a way to run the CLI on them. */
export class CliWorld {
  readonly home: string;
  readonly root: string;
  readonly userHome: string;
  readonly #dir: TempDir;

  private constructor(dir: TempDir) {
    this.#dir = dir;
    this.userHome = path.join(dir.path, 'user');
    this.home = path.join(this.userHome, '.garuda');
    this.root = path.join(dir.path, 'project');
  }

  static async create(): Promise<CliWorld> {
    const world = new CliWorld(await tempDir('garuda-cli-'));
    await mkdir(world.home, { recursive: true });
    await mkdir(path.join(world.root, '.garuda'), { recursive: true });
    return world;
  }

  /** The environment of a run: nothing of the test's own but PATH. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.userHome,
      LANG: 'C.UTF-8',
      GARUDA_HOME: this.home,
      // This checkout (fixture servers, server-everything) may itself be under /tmp, which the
      // sandbox replaces with an empty folder.
      GARUDA_SANDBOX_READ: REPO_ROOT,
      // Sign-ins go to the test's own auth file, never to this machine's keychain (on macOS the
      // Keychain needs no bus to be found); the keychain tests choose their store themselves.
      GARUDA_TOKEN_STORE: 'file',
      ...extra,
    };
  }

  /** Starts `garuda-mcp args…` in the project folder (stdin a pipe: not a terminal). */
  spawn(
    args: readonly string[],
    options: { env?: Record<string, string>; newSession?: boolean } = {},
  ): ChildProcess {
    return spawn(process.execPath, [BIN, ...args], {
      cwd: this.root,
      env: this.env(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      // A session of its own (setsid), as a command from another terminal would have.
      detached: options.newSession === true,
    });
  }

  /** Runs `garuda-mcp args…` to the end (at most `timeoutMs`). */
  run(
    args: readonly string[],
    options: {
      env?: Record<string, string>;
      input?: string;
      timeoutMs?: number;
      newSession?: boolean;
    } = {},
  ): Promise<RunResult> {
    const child = this.spawn(args, options);
    return collect(child, options.input, options.timeoutMs ?? 120_000);
  }

  /**
   * A terminal of its own: a session leader (setsid) whose commands all share its session, as the
   * commands typed in one shell do. The test's own session will not do: a CI job may run in one
   * whose leader is outside its PID namespace, which `/proc` then shows as session 0.
   */
  terminal(): CliTerminal {
    return new CliTerminal(this);
  }

  async userServers(servers: Record<string, unknown>): Promise<void> {
    await writeFile(path.join(this.home, 'mcp.json'), JSON.stringify({ servers }, null, 2));
  }

  async projectServers(servers: Record<string, unknown>): Promise<void> {
    await writeFile(
      path.join(this.root, '.garuda', 'mcp.json'),
      JSON.stringify({ servers }, null, 2),
    );
  }

  async cleanup(): Promise<void> {
    await this.#dir.cleanup();
  }
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

/** Commands run in one terminal session of their own (see {@link CliWorld.terminal}). */
export class CliTerminal {
  readonly #world: CliWorld;
  readonly #leader: ChildProcess;
  readonly #waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  #next = 0;
  #buffer = '';

  constructor(world: CliWorld) {
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

let sandboxed: Promise<boolean> | undefined;

/** A raw `initialize` request (2025-06-18) for requests sent without an SDK client. */
export { RAW_INITIALIZE } from '@garuda/test-utils';

/** The JSON inside one framed result (`<mcp_result …>\n…\n</mcp_result>`), parsed. */
export function framedJson<T>(text: string): T {
  return JSON.parse(text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n'))) as T;
}

/**
 * The calls the audit log of `home` records so far, in order, as `[tool, outcome]` (its lines
 * may land after a call's result: wait for the count you expect).
 */
export async function auditCalls(home: string): Promise<[string, string][]> {
  const log = await readFile(path.join(home, 'audit.jsonl'), 'utf8').catch(() => '');
  return log
    .split('\n')
    .filter((line) => line.includes('"kind":"call"'))
    .map((line) => JSON.parse(line) as { tool: string; outcome: string })
    .map(({ tool, outcome }) => [tool, outcome]);
}

/**
 * Whether servers run in an OS sandbox here. CI requires one (GARUDA_REQUIRE_SANDBOX=1): there a
 * missing sandbox is an error, not a quiet skip of the sandbox checks.
 *
 * @returns true when there is an OS sandbox (detected once per test file).
 * @throws Error when GARUDA_REQUIRE_SANDBOX=1 and there is none.
 */
export function osSandboxed(): Promise<boolean> {
  sandboxed ??= detectSandbox({ searchPath: process.env.PATH }).then(({ kind }) => {
    if (kind === 'none' && process.env.GARUDA_REQUIRE_SANDBOX === '1') {
      throw new Error('GARUDA_REQUIRE_SANDBOX=1 but there is no OS sandbox here');
    }
    return kind !== 'none';
  });
  return sandboxed;
}

/**
 * Gives each test of the calling file a world of its own, removed after it, and first checks
 * that CI has its sandbox (see {@link osSandboxed}).
 *
 * @param use - Receives each test's world before the test runs.
 * @example
 * let world: CliWorld;
 * worldPerTest((created) => (world = created));
 */
export function worldPerTest(use: (world: CliWorld) => void): void {
  let current: CliWorld | undefined;
  beforeAll(async () => {
    await osSandboxed();
  });
  beforeEach(async () => {
    current = await CliWorld.create();
    use(current);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
}

/** The fixture server as a config entry (mark: a unique argument to find its processes). */
export function fixtureEntry(mode: string, mark = 'garuda-cli-test'): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER, mode, mark] };
}

/** Waits for a child to end and collects what it printed. */
export function collect(child: ChildProcess, input: string | undefined, timeoutMs: number) {
  return new Promise<RunResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`garuda-mcp did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** One round of a call a host plays by hand (2026-07-28): a result, or a question. */
export interface Round {
  readonly resultType?: string;
  readonly inputRequests?: Record<string, { method: string; params: { message: string } }>;
  readonly requestState?: string;
  readonly content?: unknown;
  readonly isError?: boolean;
}

/** The one question a round carries (its key and message). */
export function questionOf(round: Round): { key: string; message: string } {
  expect(round.resultType).toBe('input_required');
  const entries = Object.entries(round.inputRequests ?? {});
  expect(entries).toHaveLength(1);
  const [key, request] = entries[0]!;
  return { key, message: request.params.message };
}

/**
 * Plays one round of `tools/call` by hand: the call, or (with `answer`) the call again with the
 * answer to `answer.round`'s question and that round's `requestState`.
 */
export async function callRound(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  answer?: { readonly round: Round; readonly decision: string },
  signal?: AbortSignal,
): Promise<Round> {
  const retry =
    answer === undefined
      ? {}
      : {
          inputResponses: {
            [questionOf(answer.round).key]: {
              action: 'accept',
              content: { decision: answer.decision },
            },
          },
          requestState: answer.round.requestState,
        };
  return (await client.request(
    { method: 'tools/call', params: { name, arguments: args, ...retry } },
    { allowInputRequired: true, ...(signal === undefined ? {} : { signal }) },
  )) as Round;
}

/**
 * Two calls of one tool whose questions must stay with their own calls: `first` calls
 * `notes__slow` for a minute and allows it (its round stays open while it runs); `second` then
 * calls it too and must be asked in its own round (with its own `requestState`, never through
 * the first call's round), and its "Deny" decides only its own call. The first call is then
 * cancelled, and the audit log of `home` shows exactly that.
 */
export async function questionsStayWithTheirCalls(
  first: Client,
  second: Client,
  home: string,
): Promise<void> {
  const a = await callRound(first, 'notes__slow', { ms: 60_000 });
  expect(questionOf(a).message).toContain('60000');
  const stopA = new AbortController();
  const runningA = callRound(
    first,
    'notes__slow',
    { ms: 60_000 },
    { round: a, decision: 'Allow once' },
    stopA.signal,
  );
  runningA.catch(() => {});
  const b = await callRound(second, 'notes__slow', { ms: 4242 });
  expect(questionOf(b).message).toContain('4242');
  expect(questionOf(b).message).not.toContain('60000');
  expect(b.requestState).not.toBe(a.requestState);
  const deniedB = await callRound(
    second,
    'notes__slow',
    { ms: 4242 },
    { round: b, decision: 'Deny' },
  );
  expect(deniedB.resultType).not.toBe('input_required');
  expect(deniedB.isError).toBe(true);
  expect(JSON.stringify(deniedB.content)).toContain('This call was not run');
  stopA.abort();
  await expect(runningA).rejects.toThrow();
  await waitFor(async () => (await auditCalls(home)).length >= 2);
  expect(await auditCalls(home)).toEqual([
    ['slow', 'declined'],
    ['slow', 'cancelled'],
  ]);
}
