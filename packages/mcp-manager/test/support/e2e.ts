// Shared helpers of the manager's end-to-end tests: throwaway homes and projects made for each
// test, config files, fixtures stopped with the test, a scripted prompter that records every
// request, and a look at which processes are alive.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectSandbox } from '@garuda/mcp-transport';
import type { LookupFunction } from '@garuda/pinned-fetch';
import {
  FIXTURE_SERVER,
  scriptedBrowser,
  startHttpFixture,
  startOAuthFixture,
  tempDir,
  type HttpFixture,
  type OAuthFixture,
  type OAuthFixtureOptions,
  type StdioFixtureMode,
  type TempDir,
} from '@garuda/test-utils';
import { afterEach, beforeEach } from 'vitest';
import { McpManager, type McpManagerOptions } from '../../src/index.js';
import type {
  CallApprovalRequest,
  CallApprovalReply,
  ConsentAnswer,
  ConsentRequest,
  Prompter,
  ServerChange,
  SignInRequest,
} from '../../src/types.js';

/** The wrapper that reads the fixture's mode from a file or renames its tools. */
export const WRAPPER = fileURLToPath(new URL('../fixtures/fixture-wrapper.mjs', import.meta.url));

/** The sandbox of this machine (CI sets GARUDA_REQUIRE_SANDBOX=1: a missing one fails). */
export const SANDBOX = await detectSandbox({ searchPath: process.env.PATH });
export const HAS_SANDBOX = SANDBOX.kind !== 'none';
if (!HAS_SANDBOX) {
  if (process.env.GARUDA_REQUIRE_SANDBOX === '1') {
    throw new Error(`GARUDA_REQUIRE_SANDBOX=1 but there is no OS sandbox: ${SANDBOX.reason}`);
  }
  process.stderr.write(
    `\n*** WARNING: no OS sandbox (${SANDBOX.reason}); sandbox tests are skipped ***\n\n`,
  );
}

/** A server entry as written in mcp.json. */
export type Entry = Record<string, unknown>;

/** A unique argument that marks the processes of one test, to find them in /proc. */
export function marker(): string {
  return `garuda-test-${randomUUID()}`;
}

/** A fixture server entry (its args carry `mark`, which the fixture ignores). */
export function fixture(mode: StdioFixtureMode, mark: string, extra: Entry = {}): Entry {
  return { command: process.execPath, args: [FIXTURE_SERVER, mode, mark], ...extra };
}

/** A wrapped fixture server entry (see fixtures/fixture-wrapper.mjs). */
export function wrapped(args: string[], mark: string, extra: Entry = {}): Entry {
  return {
    command: process.execPath,
    args: [WRAPPER, FIXTURE_SERVER, ...args, '--mark', mark],
    ...extra,
  };
}

/** A prompter that answers from a script and records every request. */
export class ScriptedPrompter implements Prompter {
  readonly consents: ConsentRequest[] = [];
  readonly notices: string[] = [];
  readonly approvals: CallApprovalRequest[] = [];
  answer: ConsentAnswer | ((request: ConsentRequest) => ConsentAnswer) = 'deny';
  approve: CallApprovalReply | ((preview: CallApprovalRequest) => CallApprovalReply) = true;

  consent(request: ConsentRequest): Promise<ConsentAnswer> {
    this.consents.push(request);
    return Promise.resolve(typeof this.answer === 'function' ? this.answer(request) : this.answer);
  }

  notice(text: string): void {
    this.notices.push(text);
  }

  approveCall(preview: CallApprovalRequest): Promise<CallApprovalReply> {
    this.approvals.push(preview);
    return Promise.resolve(
      typeof this.approve === 'function' ? this.approve(preview) : this.approve,
    );
  }
}

/** A {@link ScriptedPrompter} that also answers (and records) the sign-in question. */
export class SignInPrompter extends ScriptedPrompter {
  readonly signIns: SignInRequest[] = [];
  signInAnswer: boolean | ((request: SignInRequest) => boolean) = true;

  signIn(request: SignInRequest): Promise<boolean> {
    this.signIns.push(request);
    const answer = this.signInAnswer;
    return Promise.resolve(typeof answer === 'function' ? answer(request) : answer);
  }
}

/** The options that are records: a test's record is laid over the helper's one. */
const RECORDS = [
  'rules',
  'tools',
  'storage',
  'sandbox',
  'timeouts',
  'remote',
  'elicitation',
] as const;

/**
 * `extra` over `base`, record by record: a test's `sandbox: { tempDirs }` keeps the helper's
 * `sandbox.info` and `sandbox.readPaths`, as its own `sandbox.readPaths` replaces them.
 *
 * @param base - A helper's options.
 * @param extra - A test's options.
 * @returns The options of the manager.
 */
export function withOptions(
  base: McpManagerOptions,
  extra: Partial<McpManagerOptions>,
): McpManagerOptions {
  const merged: Record<string, unknown> = { ...base, ...extra };
  for (const key of RECORDS) {
    if (base[key] !== undefined && extra[key] !== undefined) {
      merged[key] = { ...base[key], ...extra[key] };
    }
  }
  return merged as unknown as McpManagerOptions;
}

/** This checkout (the fixture servers and their node_modules). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

/**
 * A manager whose servers find the programs in `bin` first on their PATH (a stand-in `npx`, the
 * test's own `pnpm`…), sandboxed, answering consent "once" and allowing every call.
 */
export function managerWithBin(
  where: {
    readonly root: string;
    readonly home: string;
    readonly userHome: string;
    readonly bin: string;
  },
  options: Partial<McpManagerOptions> = {},
): { mcp: McpManager; prompter: ScriptedPrompter } {
  const prompter = new ScriptedPrompter();
  prompter.answer = 'once';
  const mcp = new McpManager(
    withOptions(
      {
        root: where.root,
        home: where.home,
        userHome: where.userHome,
        env: {
          PATH: `${where.bin}:${process.env.PATH ?? ''}`,
          HOME: where.userHome,
          LANG: 'C.UTF-8',
        },
        clientInfo: { name: 'garuda-test', version: '0.0.0' },
        prompter,
        sandbox: { info: SANDBOX, readPaths: [REPO_ROOT] },
        rules: { allow: ['mcp.*'] },
      },
      options,
    ),
  );
  return { mcp, prompter };
}

/**
 * A throwaway user (home, garuda home) and project, with their config files, made afresh for
 * each test by {@link useWorkspace}. Its paths and `mark` are the current test's.
 */
export class Workspace {
  #dir: TempDir | undefined;
  #mark = '';
  readonly #managers: McpManager[] = [];
  readonly #deferred: (() => Promise<void>)[] = [];

  /** The folders and marker of a new test; called before each test. */
  async open(): Promise<void> {
    this.#dir = await tempDir('garuda-manager-');
    this.#mark = marker();
    await mkdir(path.join(this.root, '.garuda'), { recursive: true });
    await mkdir(this.home, { recursive: true });
  }

  #base(): string {
    if (this.#dir === undefined) throw new Error('the workspace is used outside a test');
    return this.#dir.path;
  }

  get root(): string {
    return path.join(this.#base(), 'project');
  }

  get userHome(): string {
    return path.join(this.#base(), 'user');
  }

  get home(): string {
    return path.join(this.userHome, '.garuda');
  }

  /** The current test's process marker (see {@link marker}). */
  get mark(): string {
    return this.#mark;
  }

  /** A scratch path inside the workspace (not inside the project). */
  path(...parts: string[]): string {
    return path.join(this.#base(), ...parts);
  }

  async userServers(servers: Record<string, Entry>): Promise<void> {
    await writeFile(path.join(this.home, 'mcp.json'), JSON.stringify({ servers }, null, 2));
  }

  async projectServers(servers: Record<string, Entry>): Promise<void> {
    await writeFile(
      path.join(this.root, '.garuda', 'mcp.json'),
      JSON.stringify({ servers }, null, 2),
    );
  }

  /** A manager on this workspace (closed by `cleanup`). */
  manager(prompter: Prompter, options: Partial<McpManagerOptions> = {}): McpManager {
    const manager = new McpManager(
      withOptions(
        {
          root: this.root,
          home: this.home,
          userHome: this.userHome,
          env: { PATH: process.env.PATH, HOME: this.userHome, LANG: 'C.UTF-8' },
          clientInfo: { name: 'garuda-test', version: '0.0.0' },
          prompter,
          // The fixture servers live in this checkout, which may itself be under /tmp.
          sandbox: { info: SANDBOX, readPaths: [REPO_ROOT] },
        },
        options,
      ),
    );
    this.#managers.push(manager);
    return manager;
  }

  /**
   * Writes `servers` as the user's and starts a manager on them, asked through a new
   * {@link ScriptedPrompter}.
   *
   * @param servers - The user's mcp.json servers.
   * @param options - More manager options.
   * @returns The started manager and its prompter.
   */
  async startUserServers(
    servers: Record<string, Entry>,
    options: Partial<McpManagerOptions> = {},
  ): Promise<{ prompter: ScriptedPrompter; mcp: McpManager }> {
    await this.userServers(servers);
    return this.#start(new ScriptedPrompter(), options);
  }

  /**
   * Writes `servers` as the project's and starts a manager on them, whose new
   * {@link ScriptedPrompter} answers every consent question with `answer`.
   *
   * @param servers - The project's mcp.json servers.
   * @param answer - The answer to each consent question.
   * @param options - More manager options.
   * @returns The started manager and its prompter.
   */
  async startProjectServers(
    servers: Record<string, Entry>,
    answer: ConsentAnswer,
    options: Partial<McpManagerOptions> = {},
  ): Promise<{ prompter: ScriptedPrompter; mcp: McpManager }> {
    await this.projectServers(servers);
    const prompter = new ScriptedPrompter();
    prompter.answer = answer;
    return this.#start(prompter, options);
  }

  async #start(prompter: ScriptedPrompter, options: Partial<McpManagerOptions>) {
    const mcp = this.manager(prompter, options);
    await mcp.start();
    return { prompter, mcp };
  }

  /** Runs `close` when the test ends, after the managers are closed and the folders removed. */
  defer(close: () => Promise<void>): void {
    this.#deferred.push(close);
  }

  /** An OAuth fixture (see `startOAuthFixture`) that stops when the test ends. */
  async oauthFixture(options: Parameters<typeof startOAuthFixture>[0] = {}): Promise<OAuthFixture> {
    const fixture = await startOAuthFixture(options);
    this.defer(() => fixture.close());
    return fixture;
  }

  /** A Streamable HTTP fixture (see `startHttpFixture`) that stops when the test ends. */
  async httpFixture(options: Parameters<typeof startHttpFixture>[0] = {}): Promise<HttpFixture> {
    const fixture = await startHttpFixture(options);
    this.defer(() => fixture.close());
    return fixture;
  }

  /**
   * The usual sign-in scene: a user's remote server on a new OAuth fixture, and a started
   * manager whose scripted browser follows each sign-in to the callback.
   *
   * @param scene - The server's name (`linear`) and extra entry fields, the fixture's options,
   *   the prompter (a {@link SignInPrompter}) and more manager options.
   * @returns The fixture, the browser, the prompter and the started manager.
   */
  async signInScene<P extends Prompter = SignInPrompter>(scene: SignInSceneOptions<P> = {}) {
    const oauth = await this.oauthFixture(scene.fixture);
    const { server = 'linear', entry = {} } = scene;
    await this.userServers({ [server]: { url: oauth.url.href, ...entry } });
    const browser = scriptedBrowser();
    const prompter = scene.prompter ?? (new SignInPrompter() as unknown as P);
    const mcp = this.manager(prompter, {
      openBrowser: (url) => browser.open(url),
      ...scene.options,
    });
    await mcp.start();
    return { oauth, browser, prompter, mcp };
  }

  /** Closes the managers, removes the folders, then runs what was deferred; after each test. */
  async cleanup(): Promise<void> {
    await Promise.all(this.#managers.splice(0).map((manager) => manager.close()));
    await this.#dir?.cleanup();
    this.#dir = undefined;
    await Promise.all(this.#deferred.splice(0).map((close) => close()));
  }
}

/** What {@link Workspace.signInScene} sets up. */
export interface SignInSceneOptions<P extends Prompter> {
  /** The server's name in the user's mcp.json (`linear`). */
  server?: string;
  /** More fields of its entry (`headers`, `oauth`). */
  entry?: Entry;
  /** The OAuth fixture's options. */
  fixture?: OAuthFixtureOptions;
  /** Who answers (a new {@link SignInPrompter}). */
  prompter?: P;
  /** More manager options (they may replace `openBrowser`). */
  options?: Partial<McpManagerOptions>;
}

/**
 * The workspace of every test in the calling file: opened before each test and cleaned up after
 * it (registered here as vitest hooks, so call it at the top of the file, before other hooks).
 *
 * @returns The one {@link Workspace} of the file, reopened for each test.
 */
export function useWorkspace(): Workspace {
  const ws = new Workspace();
  beforeEach(() => ws.open());
  afterEach(() => ws.cleanup());
  return ws;
}

export { pidsWith } from '@garuda/test-utils';

/** The servers' own names of a manager's tools, sorted (the tool names a fixture lists). */
export function toolNamesOf(mcp: McpManager): string[] {
  return mcp
    .tools()
    .map((tool) => tool.tool)
    .sort();
}

/** The text of a result, without its wrapper. */
export function unwrap(text: string): string {
  return text.replace(/^<mcp_result [^>]*>\n/, '').replace(/\n<\/mcp_result>$/, '');
}

/**
 * A DNS lookup for a pinned fetch under test: every name resolves to `addresses` (IPv4), and
 * each name asked for is recorded in `seen`. The global fetch cannot resolve the `.test` names
 * the tests use, so a request that reached a fixture through such a name went through the
 * strict fetch.
 *
 * @param addresses - What every name resolves to.
 * @param seen - Collects the names looked up.
 * @returns A `lookup` for `projectFetchOptions` (or `createPinnedFetch`).
 */
export function fixedLookup(
  addresses: readonly string[] = ['127.0.0.1'],
  seen: string[] = [],
): LookupFunction {
  return ((
    name: string,
    _options: unknown,
    callback: (error: Error | null, found: { address: string; family: number }[]) => void,
  ) => {
    seen.push(name);
    callback(
      null,
      addresses.map((address) => ({ address, family: 4 })),
    );
  }) as unknown as LookupFunction;
}

/** Collects onChange events; `next()` waits for the next one (bounded by the test's timeout). */
export class Changes {
  readonly seen: ServerChange[] = [];
  #waiters: (() => void)[] = [];
  readonly onChange = (change: ServerChange): void => {
    this.seen.push(change);
    for (const wake of this.#waiters.splice(0)) wake();
  };
  /** Resolves once `count` events have been seen in all. */
  async until(count: number): Promise<void> {
    while (this.seen.length < count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

/** A prompter whose tools questions stay open until the test answers them. */
export class HoldingPrompter extends ScriptedPrompter {
  readonly #asked: ((request: ConsentRequest) => void)[] = [];
  #reply: ((answer: 'once' | 'remember' | 'deny') => void) | undefined;
  override consent(request: ConsentRequest): Promise<'once' | 'remember' | 'deny'> {
    if (request.kind === 'server') return super.consent(request) as never;
    this.consents.push(request);
    for (const wake of this.#asked.splice(0)) wake(request);
    return new Promise((resolve) => {
      this.#reply = resolve;
    });
  }
  /** Resolves with the next tools question. */
  asked(): Promise<ConsentRequest> {
    return new Promise((resolve) => this.#asked.push(resolve));
  }
  reply(answer: 'once' | 'remember' | 'deny'): void {
    this.#reply?.(answer);
  }
}
