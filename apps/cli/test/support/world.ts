// Runs the built garuda-mcp as a subprocess on a throwaway home and project.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { detectSandbox } from '@garuda/mcp-transport';
import { FIXTURE_SERVER, tempUser, type TempDir, type TempUser } from '@garuda/test-utils';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { BIN, REPO_ROOT } from './paths.js';
import { collect, type RunResult } from './run.js';
import { CliTerminal } from './terminal.js';

/** A throwaway user and project, and a way to run the CLI on them. */
export class CliWorld {
  readonly home: string;
  readonly root: string;
  readonly userHome: string;
  readonly #dir: TempDir;

  private constructor(user: TempUser) {
    ({ dir: this.#dir, userHome: this.userHome, home: this.home, root: this.root } = user);
  }

  static async create(): Promise<CliWorld> {
    const world = new CliWorld(await tempUser('garuda-cli-'));
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

  /** The entry of the server `name` in the user's config file, as written there. */
  async userServerEntry(name: string): Promise<unknown> {
    const file = await readFile(path.join(this.home, 'mcp.json'), 'utf8');
    return (JSON.parse(file) as { servers: Record<string, unknown> }).servers[name];
  }

  /** Writes `text` to `relative` under the user's home folder (folders made); returns its path. */
  async putUserFile(relative: string, text: string): Promise<string> {
    const file = path.join(this.userHome, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  }

  async cleanup(): Promise<void> {
    await this.#dir.cleanup();
  }
}

let sandboxed: Promise<boolean> | undefined;

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
