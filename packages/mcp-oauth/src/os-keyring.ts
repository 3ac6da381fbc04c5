import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cleanLine } from '@garuda/mcp-sanitize';
import { kindOf, shorten } from '@garuda/internal';
import { invalidOption, KeyringUnavailableError } from './errors.js';
import { KEYRING_HELPER_SOURCE } from './keyring-helper-source.js';

/**
 * Where {@link AuthStore} keeps the secret part of an entry when it stores tokens in the OS
 * keychain: one secret (a string) per account, under one service. {@link createOsKeyring} is the
 * real one; tests and hosts with their own vault can pass another.
 *
 * Every method either answers or throws; a keychain that cannot be used throws
 * {@link KeyringUnavailableError} (any other error is taken the same way, its message cleaned). No method ever puts a secret in an error or a log line.
 */
export interface KeyringBackend {
  /**
   * Reads one secret.
   * @param account - the account name within the service
   * @returns the secret, or `undefined` when the keychain has none for this account
   */
  get(account: string): Promise<string | undefined>;
  /**
   * Writes (or replaces) one secret.
   * @param account - the account name within the service
   * @param secret - the secret text
   */
  set(account: string, secret: string): Promise<void>;
  /**
   * Removes one secret.
   * @param account - the account name within the service
   * @returns whether there was one
   */
  delete(account: string): Promise<boolean>;
  /**
   * Whether the keychain works here: writes, reads back and removes a probe secret, within the
   * backend's time limit.
   * @returns `ok` and a reason either way (what answered, or why nothing did)
   */
  check(): Promise<KeyringCheck>;
  /** Stops what the backend runs (the helper process); later calls start it again. */
  close(): void;
}

/** What {@link KeyringBackend.check} found. */
export interface KeyringCheck {
  /** Whether a secret could be written, read back and removed. */
  ok: boolean;
  /** What answered (`ok`), or why the keychain cannot be used; one line, no secret. */
  reason: string;
}

/** Options of {@link createOsKeyring}. */
export interface OsKeyringOptions {
  /**
   * The environment the keychain is reached with: on Linux the Secret Service is found through
   * `DBUS_SESSION_BUS_ADDRESS` of this environment (the library reads no environment itself).
   * Pass the host's (`process.env`) or a test's own bus.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** The service name of the secrets. Default {@link KEYRING_SERVICE}. */
  service?: string;
  /**
   * Time limit of each keychain operation, the helper's start included. Default
   * {@link DEFAULT_KEYRING_TIMEOUT_MS}. A keychain that does not answer in time is given up for
   * the life of this backend (its helper is killed), so a dead bus costs one wait, not one per
   * call.
   */
  timeoutMs?: number;
}

/** Default of {@link OsKeyringOptions.service}. */
export const KEYRING_SERVICE = 'garuda-mcp';
/** Default of {@link OsKeyringOptions.timeoutMs}. */
export const DEFAULT_KEYRING_TIMEOUT_MS = 5_000;

type Op = 'get' | 'set' | 'delete';
interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: unknown;
}
interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

/**
 * The OS keychain through `@napi-rs/keyring`: the macOS Keychain, the Windows Credential
 * Manager, or the Secret Service on Linux (GNOME Keyring, KWallet), never the kernel keyring
 * (it is lost at reboot).
 *
 * The binding's calls are synchronous at their core: on Linux, creating an entry connects to
 * D-Bus on the calling thread, and a bus that accepts but never answers blocks it for good. So
 * the binding runs in a small helper process (started on first use, one per backend), and every
 * operation has a time limit after which the helper is killed: a dead keychain can never hang a
 * sign-in or the event loop. The helper never keeps the host alive, and it exits with it.
 *
 * @param options - see {@link OsKeyringOptions}
 * @returns the backend
 * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable option
 * @example
 * ```ts
 * const keyring = createOsKeyring({ env: process.env });
 * const { ok, reason } = await keyring.check();
 * const store = new AuthStore(file, { tokenStorage: ok ? 'keyring' : 'file', keyring });
 * ```
 */
export function createOsKeyring(options: OsKeyringOptions): KeyringBackend {
  if (typeof options !== 'object' || options === null) {
    throw invalidOption(`createOsKeyring needs an options object, got ${kindOf(options)}`);
  }
  const { env } = options;
  if (typeof env !== 'object' || env === null) {
    throw invalidOption(`options.env must be an environment object, got ${kindOf(env)}`);
  }
  const service = options.service ?? KEYRING_SERVICE;
  if (typeof service !== 'string' || service === '' || service.length > 200) {
    throw invalidOption('options.service must be a non-empty string of at most 200 characters');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_KEYRING_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > 600_000) {
    throw invalidOption('options.timeoutMs must be a number of milliseconds from 1 to 600000');
  }
  return new HelperKeyring({ ...env }, service, timeoutMs);
}

class HelperKeyring implements KeyringBackend {
  readonly #env: Record<string, string | undefined>;
  readonly #service: string;
  readonly #timeoutMs: number;
  #child: ChildProcess | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Why the keychain is given up for the life of this backend. */
  #dead: string | undefined;

  constructor(env: Record<string, string | undefined>, service: string, timeoutMs: number) {
    this.#env = env;
    this.#service = service;
    this.#timeoutMs = timeoutMs;
  }

  async get(account: string): Promise<string | undefined> {
    const value = await this.#call('get', account);
    return typeof value === 'string' ? value : undefined;
  }

  async set(account: string, secret: string): Promise<void> {
    await this.#call('set', account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return (await this.#call('delete', account)) === true;
  }

  async check(): Promise<KeyringCheck> {
    const account = `probe-${randomBytes(8).toString('hex')}`;
    const probe = randomBytes(16).toString('hex');
    try {
      await this.set(account, probe);
      const back = await this.get(account);
      await this.delete(account);
      if (back !== probe)
        return { ok: false, reason: 'the keychain did not give back what was stored' };
      return {
        ok: true,
        reason:
          process.platform === 'linux'
            ? 'the Secret Service answered'
            : process.platform === 'darwin'
              ? 'the macOS Keychain answered'
              : 'the OS credential store answered',
      };
    } catch (error) {
      return { ok: false, reason: reasonOf(error) };
    }
  }

  close(): void {
    const child = this.#child;
    this.#child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.#failAll('the keychain helper was stopped');
  }

  #call(op: Op, account: string, secret?: string): Promise<unknown> {
    if (typeof account !== 'string' || account === '') {
      return Promise.reject(invalidOption('a keychain account must be a non-empty string'));
    }
    if (this.#dead !== undefined) return Promise.reject(new KeyringUnavailableError(this.#dead));
    // Without a session bus, the Linux binding cannot reach the Secret Service at all (it
    // does not look for one anywhere else): say so at once instead of starting a helper.
    if (process.platform === 'linux' && !this.#env.DBUS_SESSION_BUS_ADDRESS) {
      return Promise.reject(
        new KeyringUnavailableError('no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)'),
      );
    }
    let child: ChildProcess;
    try {
      child = this.#helper();
    } catch (error) {
      this.#dead = reasonOf(error);
      return Promise.reject(new KeyringUnavailableError(this.#dead));
    }
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#dead = `the keychain did not answer within ${this.#timeoutMs} ms`;
        this.close();
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      child.send({ id, op, service: this.#service, account, secret }, (error) => {
        if (error) this.#settle({ id, ok: false, error: 'the keychain helper is not running' });
      });
    });
  }

  #helper(): ChildProcess {
    if (this.#child) return this.#child;
    let modulePath: string;
    try {
      modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch {
      throw new Error('the @napi-rs/keyring package is not installed');
    }
    const child = spawn(process.execPath, ['-e', KEYRING_HELPER_SOURCE, modulePath], {
      env: this.#env,
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      windowsHide: true,
    });
    // Neither the helper nor its channel keeps the host alive; a pending call's timer does.
    child.unref();
    (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
    child.on('message', (message: unknown) => this.#settle(message as Reply));
    child.on('error', () => this.#lost(child, 'the keychain helper could not start'));
    child.on('exit', () => this.#lost(child, 'the keychain helper stopped'));
    this.#child = child;
    return child;
  }

  #lost(child: ChildProcess, reason: string): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    if (this.#pending.size > 0) {
      this.#dead ??= reason;
      this.#failAll(reason);
    }
  }

  #failAll(reason: string): void {
    for (const id of [...this.#pending.keys()]) {
      this.#settle({ id, ok: false, error: this.#dead ?? reason });
    }
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.value);
    else {
      const reason = typeof reply.error === 'string' ? reply.error : 'the keychain failed';
      // A binding that cannot load is not going to load on the next call either.
      if (reason.startsWith('load:')) this.#dead = reason.slice(5).trim();
      pending.reject(new KeyringUnavailableError(keyringReason(reason.replace(/^load:\s*/, ''))));
    }
  }
}

/**
 * Why a keychain call failed, as one cleaned line: the reason of a
 * {@link KeyringUnavailableError}, else the error's message (an injected backend's), cleaned
 * and shortened. @internal
 */
export function reasonOf(error: unknown): string {
  if (KeyringUnavailableError.isInstance(error)) return error.reason;
  return keyringReason(error instanceof Error ? error.message : 'the keychain failed');
}

function keyringReason(text: string): string {
  return shorten(text, { max: 200, clean: cleanLine });
}
