// Runs the built garuda-mcp as a child process on a throwaway home and project, the way a user
// at a terminal would: `garuda-mcp --home <home> --root <project> <command> …`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidsWith, tempUser, waitFor, type TempDir, type TempUser } from '@garuda/test-utils';

/** This checkout. */
export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** The file a package's `bin` points at, found through its package.json. */
export function binOf(pkg: string): string {
  const manifest = fileURLToPath(import.meta.resolve(`${pkg}/package.json`));
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const file = typeof bin === 'string' ? bin : Object.values(bin)[0];
  if (file === undefined) throw new Error(`${pkg} has no bin`);
  return path.join(path.dirname(manifest), file);
}

/** The built command (apps/cli/dist/bin.js; turbo builds it before these tests). */
export const BIN = binOf('garuda-mcp');

/** The entry file of each server under test (the exact versions of package.json). */
export const SERVER_JS = {
  everything: binOf('@modelcontextprotocol/server-everything'),
  filesystem: binOf('@modelcontextprotocol/server-filesystem'),
  memory: binOf('@modelcontextprotocol/server-memory'),
  sequentialThinking: binOf('@modelcontextprotocol/server-sequential-thinking'),
} as const;

/** A variable of the test's environment that no server may see (only an allowlist passes). */
export const UNSHARED_VARIABLE = 'INTEROP_UNSHARED_TOKEN';

/** What one run printed and how it ended. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `call … --json`: the result as the model would get it, or the CLI's error on stderr. */
export interface CallResult extends RunResult {
  /** The parsed stdout, when the call ran (exit 0 or 1). */
  readonly result?: { readonly tool: string; readonly isError: boolean; readonly text: string };
}

/** One tool of `tools --json`. */
export interface ListedTool {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** One row of `status --json`. */
export interface StatusRow {
  readonly name: string;
  readonly source: string;
  readonly state: string;
  readonly tools: number;
  readonly sandbox: string;
  readonly network: string;
}

/** A result's text: `<mcp_result server=… tool=…>body</mcp_result>`, then maybe `(note: …)`. */
const WRAPPED =
  /^<mcp_result server="[^"]*" tool="[^"]*">\n([\s\S]*)\n<\/mcp_result>(?:\n\(note: ([\s\S]*)\))?$/;

function partsOf(result: CallResult['result']): RegExpExecArray {
  const match = WRAPPED.exec(result?.text ?? '');
  if (match === null) throw new Error(`not a wrapped result: ${JSON.stringify(result)}`);
  return match;
}

/** The body of a result: the server's text, inside the wrapper. */
export function bodyOf(result: CallResult['result']): string {
  return partsOf(result)[1] as string;
}

/** The note garuda-mcp adds after the wrapper (why the sandbox refused a file), if any. */
export function noteOf(result: CallResult['result']): string | undefined {
  return partsOf(result)[2];
}

/** A throwaway user (home folder, Garuda home) and project, and the CLI run on them. */
export class InteropWorld {
  /** The user's home folder (HOME of every run: other clients' user files are looked for here). */
  readonly userHome: string;
  /** Garuda's home (--home). */
  readonly home: string;
  /** The project root (--root, and the folder every run starts in). */
  readonly root: string;
  /** Flags given to every run after --home and --root (e.g. --sandbox-read, --trust-project). */
  readonly #flags: string[] = [];
  /** What `cleanup` ends first (servers the test started itself). */
  readonly #deferred: (() => Promise<void>)[] = [];
  readonly #dir: TempDir;

  private constructor(user: TempUser) {
    ({ dir: this.#dir, userHome: this.userHome, home: this.home, root: this.root } = user);
  }

  /** Creates the folders (home, project) in a fresh temporary folder. */
  static async create(): Promise<InteropWorld> {
    return new InteropWorld(await tempUser('garuda-interop-'));
  }

  /** A new folder of this world, outside the project (for --write, or one servers only read). */
  async folder(name: string): Promise<string> {
    const dir = path.join(this.#dir.path, name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** The folder of this world: a unique string for the command line of a process of it. */
  get mark(): string {
    return this.#dir.path;
  }

  /** Registers something for `cleanup` to end first (a server the test started). */
  defer(stop: () => Promise<void>): void {
    this.#deferred.push(stop);
  }

  /** Adds flags to every later run (`--trust-project`, `--sandbox-read <dir>`). */
  always(...flags: string[]): void {
    this.#flags.push(...flags);
  }

  /**
   * Runs `garuda-mcp --home <home> --root <project> <flags> args…` to its end. The environment
   * holds PATH, HOME and LANG, the checkout as a sandbox read path (it may be under /tmp, which
   * the sandbox replaces with an empty folder), and one variable that must not reach a server.
   */
  run(args: readonly string[], timeoutMs = 120_000): Promise<RunResult> {
    const child = spawn(
      process.execPath,
      [BIN, '--home', this.home, '--root', this.root, ...this.#flags, ...args],
      {
        cwd: this.root,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: this.userHome,
          LANG: 'C.UTF-8',
          GARUDA_SANDBOX_READ: REPO_ROOT,
          [UNSHARED_VARIABLE]: 'must-not-reach-any-server',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    return new Promise<RunResult>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`garuda-mcp ${args.join(' ')} did not end in ${timeoutMs} ms\n${stderr}`));
      }, timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      // No terminal: every question the flags do not answer is answered "no".
      child.stdin.end();
    });
  }

  /** Runs a command that must succeed, and returns what it printed. */
  async ok(args: readonly string[]): Promise<RunResult> {
    const result = await this.run(args);
    if (result.code !== 0) {
      throw new Error(
        `garuda-mcp ${args.join(' ')} ended with ${result.code}\n${result.stdout}\n${result.stderr}`,
      );
    }
    return result;
  }

  /** `tools <server> --json`: the tools a model would get from this server. */
  async tools(server: string): Promise<ListedTool[]> {
    const { stdout } = await this.ok(['tools', server, '--json']);
    return (JSON.parse(stdout) as { tools: ListedTool[] }).tools;
  }

  /** `status --json`: one row per configured server. */
  async status(): Promise<StatusRow[]> {
    const { stdout } = await this.ok(['status', '--json']);
    return (JSON.parse(stdout) as { servers: StatusRow[] }).servers;
  }

  /** `call <tool> '<json>' --yes --json`. */
  async call(tool: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const run = await this.run(['call', tool, JSON.stringify(args), '--yes', '--json']);
    if (run.code !== 0 && run.code !== 1) return run;
    try {
      return { ...run, result: JSON.parse(run.stdout) as CallResult['result'] };
    } catch {
      throw new Error(`call ${tool} printed no JSON\n${run.stdout}\n${run.stderr}`);
    }
  }

  /** Writes the project's `.mcp.json` the way Claude Code (and other clients) write theirs. */
  async claudeProjectFile(mcpServers: Record<string, unknown>): Promise<void> {
    await writeFile(path.join(this.root, '.mcp.json'), JSON.stringify({ mcpServers }, null, 2));
  }

  /** Writes Garuda's own file of the project (`.garuda/mcp.json`) or of the user. */
  async garudaFile(where: 'project' | 'user', content: Record<string, unknown>): Promise<void> {
    const file =
      where === 'user'
        ? path.join(this.home, 'mcp.json')
        : path.join(this.root, '.garuda', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(content, null, 2));
  }

  /**
   * Ends what was deferred, waits until no process of this world is left (the command lines of
   * the CLI and of a sandbox name its folders), then removes every folder of it.
   */
  async cleanup(): Promise<void> {
    try {
      for (const stop of this.#deferred.splice(0).reverse()) await stop();
      await waitFor(async () => (await pidsWith(this.#dir.path)).length === 0, {
        timeoutMs: 60_000,
      });
    } finally {
      await this.#dir.cleanup();
    }
  }
}

/** The name a model gets for a tool: `mcp__<server, - as _>__<tool>`. */
export function modelName(server: string, tool: string): string {
  return `mcp__${server.replaceAll('-', '_')}__${tool}`;
}

/**
 * The OS sandbox garuda-mcp finds on this machine (`doctor --json`): `bwrap`, `seatbelt` or
 * `none`. Without one the tests that check the sandbox itself are skipped (vitest counts them);
 * CI sets GARUDA_REQUIRE_SANDBOX=1, and then a missing one fails the whole suite instead.
 */
async function probeSandbox(): Promise<{ kind: string; reason?: string }> {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter garuda-mcp build)`);
  }
  const world = await InteropWorld.create();
  try {
    const doctor = await world.run(['doctor', '--json']);
    return (JSON.parse(doctor.stdout) as { sandbox: { kind: string; reason?: string } }).sandbox;
  } finally {
    await world.cleanup();
  }
}

/** The sandbox of this machine, as garuda-mcp reports it. */
export const SANDBOX = await probeSandbox();
/** Whether servers run sandboxed here. */
export const HAS_SANDBOX = SANDBOX.kind !== 'none';
if (!HAS_SANDBOX && process.env.GARUDA_REQUIRE_SANDBOX === '1') {
  throw new Error(`GARUDA_REQUIRE_SANDBOX=1 but garuda-mcp finds no OS sandbox: ${SANDBOX.reason}`);
}
