// One test's world for real sign-ins: a temporary home with the auth file, the OAuth fixture
// (authorization server + protected MCP endpoint), providers whose onRedirect starts
// waitForCallback and then a scripted browser, and SDK clients on StreamableHTTPClientTransport.
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import {
  RAW_INITIALIZE,
  scriptedBrowser,
  startOAuthFixture,
  type BrowserVisit,
  type OAuthFixture,
  type OAuthFixtureOptions,
  type ScriptedBrowser,
} from '@garuda/test-utils';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { afterAll, afterEach, beforeEach, expect, vi } from 'vitest';
import { AuthStore } from '../src/auth-store.js';
import { createOAuthProvider, type GarudaOAuthProvider } from '../src/oauth-provider.js';
import type { GarudaOAuthProviderOptions, PendingSignIn } from '../src/provider-options.js';
import { waitForCallback } from '../src/wait-for-callback.js';
import { recordingLogger, type SecretScan, tempDir, type TempDir } from './helpers.js';

/** A provider plus what its sign-ins did. */
export interface Harness {
  provider: GarudaOAuthProvider;
  browser: ScriptedBrowser;
  redirects: { url: URL; signIn: PendingSignIn }[];
  /** The browser visits, settled once the browser has read the callback's answer. */
  visits: Promise<BrowserVisit>[];
  /** The callback of the latest redirect. */
  callback: () => Promise<URLSearchParams>;
}

export class SignInWorld {
  readonly rec = recordingLogger();
  readonly console: string[] = [];
  readonly #cleanups: (() => Promise<unknown>)[] = [];

  private constructor(
    readonly home: TempDir,
    readonly file: string,
    readonly scan: SecretScan,
  ) {}

  /** A fresh world; the SDK's console notes are captured as outputs. */
  static async create(scan: SecretScan): Promise<SignInWorld> {
    const home = await tempDir('garuda-oauth-');
    const world = new SignInWorld(home, path.join(home.path, 'home', 'mcp-auth.json'), scan);
    for (const level of ['warn', 'error', 'log', 'info'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        world.console.push(args.map(String).join(' '));
      });
    }
    return world;
  }

  /**
   * A fresh world for each test of the calling file (handed to `use`), disposed after it; after
   * the last test, no output may contain a secret the scan saw. Call at the top level.
   */
  static eachTest(scan: SecretScan, use: (world: SignInWorld) => void): void {
    let world: SignInWorld | undefined;
    beforeEach(async () => {
      world = await SignInWorld.create(scan);
      use(world);
    });
    afterEach(async () => {
      await world?.dispose();
      world = undefined;
    });
    afterAll(() => {
      expect(scan.leaks()).toEqual([]);
    });
  }

  /** Stops everything, hands secrets and outputs to the scan, removes the home. */
  async dispose(): Promise<void> {
    for (const cleanup of this.#cleanups.splice(0).reverse())
      await cleanup().catch(() => undefined);
    await this.scan.addSecretsFromFile(this.file);
    this.scan.addOutput(...this.rec.all(), ...this.console);
    vi.restoreAllMocks();
    await this.home.cleanup();
  }

  /** Runs `fn` when the world is disposed. */
  onDispose(fn: () => Promise<unknown>): void {
    this.#cleanups.push(fn);
  }

  store(): AuthStore {
    return new AuthStore(this.file, { logger: this.rec.logger });
  }

  async fixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
    const f = await startOAuthFixture(options);
    this.onDispose(() => f.close());
    return f;
  }

  /** A prepared provider whose `onRedirect` starts `waitForCallback`, then the scripted browser. */
  async harness(
    f: OAuthFixture,
    options: Partial<GarudaOAuthProviderOptions> = {},
  ): Promise<Harness> {
    const browser = scriptedBrowser();
    const redirects: Harness['redirects'] = [];
    const visits: Harness['visits'] = [];
    let pending: Promise<URLSearchParams> | undefined;
    const provider = await createOAuthProvider({
      store: this.store(),
      scope: 'user',
      name: 'demo',
      serverUrl: f.url,
      allowHttpLoopback: true,
      logger: this.rec.logger,
      onRedirect: (url, signIn) => {
        redirects.push({ url, signIn });
        pending = waitForCallback({
          port: signIn.port,
          state: signIn.state,
          // A safety net only (the scripted browser comes at once): generous for a busy machine.
          timeoutMs: 60_000,
          logger: this.rec.logger,
          onListening: () => void visits.push(browser.open(url)),
        });
        // Observed by the test through callback(); never left unhandled.
        pending.catch(() => undefined);
      },
      ...options,
    });
    return {
      provider,
      browser,
      redirects,
      visits,
      callback: async () => {
        if (!pending) throw new Error('no redirect happened');
        const params = await pending;
        this.scan.addParams(params);
        return params;
      },
    };
  }

  newClient(): Client {
    const client = new Client(
      { name: 'garuda-oauth-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    client.onerror = () => {};
    return client;
  }

  transport(f: OAuthFixture, provider: GarudaOAuthProvider): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(f.url, { authProvider: provider });
  }

  /** connect → 401 → …: the error `connect` ended with, and the transport for `finishAuth`. */
  async firstConnect(
    f: OAuthFixture,
    provider: GarudaOAuthProvider,
  ): Promise<{ error: unknown; transport: StreamableHTTPClientTransport }> {
    const transport = this.transport(f, provider);
    const client = this.newClient();
    const error = await client.connect(transport).then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close().catch(() => undefined);
    this.scan.addError(error);
    return { error, transport };
  }

  async connectedClient(f: OAuthFixture, provider: GarudaOAuthProvider): Promise<Client> {
    const client = this.newClient();
    await client.connect(this.transport(f, provider));
    this.onDispose(() => client.close());
    return client;
  }

  /** The whole sign-in; returns the connected client. */
  async signIn(f: OAuthFixture, h: Harness): Promise<Client> {
    const { error, transport } = await this.firstConnect(f, h.provider);
    expect(UnauthorizedError.isInstance(error)).toBe(true);
    await transport.finishAuth(await h.callback());
    return this.connectedClient(f, h.provider);
  }

  /** A fixture server, and a harness signed in to it: the set-up of a test of what comes after. */
  async signedIn(): Promise<{ f: OAuthFixture; h: Harness; client: Client }> {
    const f = await this.fixture();
    const h = await this.harness(f);
    const client = await this.signIn(f, h);
    return { f, h, client };
  }

  /** Listens on `port` so nothing else can, until the world is disposed. */
  async occupy(port: number): Promise<Server> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.onDispose(() => new Promise((resolve) => server.close(resolve)));
    return server;
  }
}

/** The text of a tool result. */
export async function echo(client: Client, text: string): Promise<string> {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  return (result.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('');
}

/** A raw MCP request with a given access token: only the status matters. */
export async function rawMcpStatus(f: OAuthFixture, token: string): Promise<number> {
  const response = await fetch(f.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: RAW_INITIALIZE,
  });
  await response.body?.cancel();
  return response.status;
}
