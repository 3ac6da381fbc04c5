import { kindOf, log, quote } from '@garuda/internal';
import { LockedJsonFile, TrustStoreError, TrustStoreErrorCode } from '@garuda/mcp-trust';
import {
  ENTRY_FIELDS,
  isPlainObject,
  readStoredEntry,
  toStoredEntry,
  type AuthEntry,
} from './auth-entry.js';
import { authFileFromJson, authFileToJson } from './auth-file.js';
import { checkServerName, normalizeId, type AuthEntryId } from './auth-key.js';
import { invalidOption, KeyringUnavailableError } from './errors.js';
import type { OAuthLogger } from './logger.js';
import { createOsKeyring, reasonOf, type KeyringBackend } from './os-keyring.js';
import {
  decodeSecret,
  encodeSecret,
  hasSecret,
  joinSecrets,
  keyringAccount,
  newRev,
  pointerOf,
  splitSecrets,
  TOKEN_STORAGES,
  type KeyringPointer,
  type SecretPart,
  type TokenStorage,
  type TokenStorageInfo,
} from './token-storage.js';

/** Options of {@link AuthStore}. */
export interface AuthStoreOptions {
  /** Receives warnings (a corrupt file moved aside, loose permissions) and debug notes. */
  logger?: OAuthLogger;
  /** How long a change waits for another process's lock before it fails. Default 10 000 ms. */
  lockTimeoutMs?: number;
  /**
   * After how long without a refresh a lock counts as left behind by a dead process and is
   * taken over. At least 2 000; default 5 000 ms.
   */
  lockStaleMs?: number;
  /** The clock, for `updatedAt`, `tokensSavedAt` and the names of moved-aside files. */
  now?: () => Date;
  /**
   * Where the secrets of new sign-ins go: `file` (the default), `keyring`, `session` or `auto`
   * ({@link TokenStorage}). An entry that holds secrets stays where it is (a later refresh
   * from a store with another setting does not move it); the setting decides for an entry
   * without secrets, that is a new sign-in.
   */
  tokenStorage?: TokenStorage;
  /**
   * The environment the OS keychain is reached with (`DBUS_SESSION_BUS_ADDRESS` on Linux), for
   * the default {@link KeyringBackend} ({@link createOsKeyring}). Without it (and without
   * `keyring`), the keychain is unavailable: `auto` means `file`, and entries whose secret is
   * in the keychain read as not signed in.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Another keychain than the OS one (a test double, a host's own vault). */
  keyring?: KeyringBackend;
  /** Time limit of each call to the OS keychain. Default 5 000 ms. */
  keyringTimeoutMs?: number;
}

/** One entry with where it belongs, as {@link AuthStore.remove} returns it. */
export interface AuthRecord {
  /** `scope::name::url`. */
  key: string;
  /** `'user'` or a project root. */
  scope: string;
  /** The server name. */
  name: string;
  /** The server URL. */
  url: string;
  /** What was stored, secrets included. */
  entry: AuthEntry;
}

/** What {@link AuthStore.list} says about one entry: no secrets. */
export interface AuthEntryInfo {
  key: string;
  scope: string;
  name: string;
  url: string;
  /** Whether tokens are stored (they may have expired; a refresh token may renew them). */
  signedIn: boolean;
  /** Whether a refresh token is stored. */
  refreshable: boolean;
  /** Whether a sign-in was started and has not finished (a code verifier is stored). */
  signInInProgress: boolean;
  /**
   * Where its secrets are: `file`, `keyring` (the file keeps a pointer) or `session` (this
   * process's memory). A keychain that no longer has them (or cannot be read) reads as not
   * signed in, with a warning in the log.
   */
  storage: 'file' | 'keyring' | 'session';
  /** The client id, when a client is registered. */
  clientId?: string;
  /** The authorization server the tokens (or else the client) are stamped with. */
  issuer?: string;
  /** The callback port kept with the client. */
  port?: number;
  /** When the access token expires (ISO 8601), when the server said. */
  expiresAt?: string;
  /** When the entry last changed (ISO 8601). */
  updatedAt?: string;
}

/** Default of {@link AuthStoreOptions.lockTimeoutMs}. */
export const DEFAULT_AUTH_LOCK_TIMEOUT_MS = 10_000;
/** Default of {@link AuthStoreOptions.lockStaleMs}. */
export const DEFAULT_AUTH_LOCK_STALE_MS = 5_000;

/**
 * The sign-ins of MCP servers, in one file (`<home>/mcp-auth.json`) that only this store writes:
 * registered clients, callback ports, discovery results, and — depending on `tokenStorage`
 * ({@link TokenStorage}) — the secrets (tokens, the code verifier and `state` of a sign-in in
 * progress) or a pointer to them in the OS keychain.
 *
 * - The file has mode 0600 in a folder created with mode 0700. Every write goes to a temporary
 *   file that is flushed and renamed over the old one, so readers see the old or the new file,
 *   never half of one.
 * - Every change is a read-modify-write under a cross-process lock (`<file>.lock`), so two
 *   processes signing in to two servers at once keep both sign-ins. The keychain write of an
 *   entry happens under the same lock.
 * - A corrupt file is moved aside to `<file>.corrupt-<UTC time>` with a warning, and the store
 *   goes on empty: you are asked to sign in again, nothing crashes.
 * - Entries are keyed `scope::name::url` ({@link AuthEntryId}). Keychain secrets live under the
 *   service `garuda-mcp`, one account per entry made of the server name and hashes of this
 *   file's path and the entry key, so two homes never share one.
 * - An entry keeps the storage it has while it holds secrets; the setting decides for a new
 *   sign-in. Reading accepts inline entries and keychain pointers alike. A pointer whose
 *   secret is gone from the keychain (or a keychain that cannot be read) reads as not signed
 *   in, with a warning, never a crash. {@link AuthStore.remove} removes both.
 *
 * @example
 * ```ts
 * const store = new AuthStore(path.join(home, 'mcp-auth.json'), { logger });
 * const id = { scope: 'user', name: 'linear', url: 'https://mcp.linear.app/mcp' };
 * await store.update(id, (entry) => ({ ...entry, port: 53121 }));
 * (await store.list()).map((e) => `${e.name}: ${e.signedIn ? 'signed in' : 'no sign-in'}`);
 * await store.remove('linear'); // sign out everywhere
 * ```
 */
export class AuthStore {
  /** The auth file, made absolute. */
  readonly file: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockFile: string;
  /** The logger given in the options. */
  readonly logger: OAuthLogger | undefined;
  /** The `tokenStorage` of the options (default `file`). */
  readonly tokenStorage: TokenStorage;

  readonly #store: LockedJsonFile<Map<string, unknown>>;
  readonly #reported = new Set<string>();
  readonly #keyring: KeyringBackend;
  readonly #ownKeyring: boolean;
  /** Session entries, raw (`{ scope, name, url, …entry }`): never written anywhere. */
  readonly #memory = new Map<string, Record<string, unknown>>();
  /** Secrets read from or written to the keychain, by account, with their revision. */
  readonly #secrets = new Map<string, { rev: string; secret: SecretPart }>();
  #choice: Promise<TokenStorageInfo> | undefined;
  /** Why `auto` went back to the file after the keychain failed a write. */
  #fellBack: string | undefined;

  /**
   * @param file - path of the auth file, for example `<home>/mcp-auth.json`; made absolute here
   * @param options - logger, lock timeout, stale time, clock, token storage and keychain
   * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` when `file` is empty or an option is out of range
   */
  constructor(file: string, options: AuthStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw invalidOption(`options must be an object, got ${kindOf(options)}`);
    }
    const storage = options.tokenStorage ?? 'file';
    if (!TOKEN_STORAGES.includes(storage)) {
      throw invalidOption(
        `options.tokenStorage must be one of ${TOKEN_STORAGES.join(', ')}, got ` +
          `${typeof storage === 'string' ? quote(storage, { max: 20 }) : kindOf(storage)}`,
      );
    }
    try {
      this.#store = new LockedJsonFile(file, {
        label: 'auth file',
        fromJson: authFileFromJson,
        toJson: authFileToJson,
        logger: options.logger,
        lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_AUTH_LOCK_TIMEOUT_MS,
        lockStaleMs: options.lockStaleMs ?? DEFAULT_AUTH_LOCK_STALE_MS,
        now: options.now,
        warnIfReadableByOthers: true,
        afterMoveAside:
          'the store starts empty: you will be asked to sign in to your MCP servers again. ' +
          'The moved file may hold tokens: delete it when you no longer need it',
      });
    } catch (error) {
      throw ownOption(error);
    }
    this.file = this.#store.file;
    this.lockFile = this.#store.lockFile;
    this.logger = options.logger;
    this.tokenStorage = storage;
    const { keyring } = options;
    if (keyring !== undefined) {
      for (const method of ['get', 'set', 'delete', 'check', 'close'] as const) {
        if (typeof (keyring as unknown as Record<string, unknown>)?.[method] !== 'function') {
          throw invalidOption(`options.keyring must be a KeyringBackend (it has no ${method}())`);
        }
      }
    }
    this.#ownKeyring = keyring === undefined;
    this.#keyring =
      keyring ??
      (options.env === undefined
        ? noKeyring()
        : createOsKeyring({
            env: options.env,
            ...(options.keyringTimeoutMs === undefined
              ? {}
              : { timeoutMs: options.keyringTimeoutMs }),
          }));
  }

  /**
   * The current time from the injected clock.
   * @returns a valid `Date`
   * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` when the clock returns something else
   */
  now(): Date {
    try {
      return this.#store.now();
    } catch (error) {
      throw ownOption(error);
    }
  }

  /**
   * Where new sign-ins are kept and why: for `auto`, whether the OS keychain answered a probe
   * (run once per store, within the keychain's time limit); for `keyring`, whether it works.
   * @returns the requested and the effective storage, and the reason
   * @example
   * ```ts
   * const { mode, reason } = await store.storage(); // { mode: 'file', reason: 'no D-Bus session bus …' }
   * ```
   */
  async storage(): Promise<TokenStorageInfo> {
    const chosen = await this.#chosen();
    if (this.#fellBack !== undefined && chosen.requested === 'auto') {
      return { requested: 'auto', mode: 'file', available: true, reason: this.#fellBack };
    }
    return { ...chosen };
  }

  /** Stops the keychain helper process, if this store started one. Later calls start it again. */
  close(): void {
    if (this.#ownKeyring) this.#keyring.close();
  }

  /**
   * Reads one server's entry. Takes no lock: the file is only ever replaced by an atomic rename.
   * @param id - scope, name and URL of the server
   * @returns a fresh copy of the entry (secrets from the keychain included), or `undefined`
   * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION` for an unusable id
   * @throws `LockedFileError` of `@garuda/mcp-trust` (`TRUST_FILE_UNREADABLE`) when the file exists
   *   but cannot be read
   */
  async get(id: AuthEntryId): Promise<AuthEntry | undefined> {
    const nid = normalizeId(id);
    const kept = this.#memory.get(nid.key);
    if (kept !== undefined) return this.#recordOf(nid.key, kept)?.entry;
    const raw = (await this.#read()).get(nid.key);
    return (await this.#load(nid.key, raw))?.record.entry;
  }

  /**
   * Reads, changes and writes one server's entry while holding the cross-process lock, so no
   * other process's change can slip in between. Secrets go where the entry has them, or for a
   * new sign-in where `tokenStorage` says.
   * @param id - scope, name and URL of the server
   * @param fn - gets a copy of the current entry (`undefined` when absent) and returns the new
   *   one, or `undefined` to remove it. It must be synchronous and quick: the lock is held while
   *   it runs. If it throws, nothing is written and the error comes out of `update`.
   * @returns a copy of the new entry, or `undefined` when it is now absent
   * @throws {@link OAuthFlowError} `OAUTH_INVALID_OPTION`, {@link OAuthFlowError} `OAUTH_INVALID_ENTRY` for unusable input
   * @throws {@link KeyringUnavailableError} when the secrets are (or must go) in the keychain and
   *   it does not answer; nothing was written then
   * @throws `LockedFileError` of `@garuda/mcp-trust`, passed through: `TRUST_LOCK_TIMEOUT` when another
   *   process holds the lock for too long, `TRUST_WRITE_FAILED` when the file cannot be written…
   */
  async update(
    id: AuthEntryId,
    fn: (current: AuthEntry | undefined) => AuthEntry | undefined,
  ): Promise<AuthEntry | undefined> {
    const nid = normalizeId(id);
    if (typeof fn !== 'function') {
      throw invalidOption(`update needs a function, got ${kindOf(fn)}`);
    }
    const apply = (current: AuthEntry | undefined) => {
      const next: unknown = fn(current === undefined ? undefined : structuredClone(current));
      if (next === undefined) return undefined;
      if (next !== null && typeof next === 'object' && 'then' in next) {
        throw invalidOption('update needs a synchronous function (it returned a promise)');
      }
      const stored = toStoredEntry(next);
      // An unchanged entry is not written again: no disk write, no new file.
      if (current !== undefined && canonical(current) === canonical(stored)) return current;
      return ordered({ ...stored, updatedAt: this.now().toISOString() });
    };
    const ids = { scope: nid.scope, name: nid.name, url: nid.url };
    // Decided before the lock: a probe of the keychain may take its whole time limit.
    const chosen = (await this.#chosen()).mode;
    const fallback = this.#fellBack === undefined ? chosen : 'file';
    const kept = this.#memory.get(nid.key);
    // A session entry, or a new one for a session store: the file is not touched (not even
    // its folder or lock) unless it has this entry.
    if (kept !== undefined || (fallback === 'session' && !(await this.#read()).has(nid.key))) {
      const next = apply(kept === undefined ? undefined : this.#recordOf(nid.key, kept)?.entry);
      if (next === undefined) this.#memory.delete(nid.key);
      else this.#memory.set(nid.key, { ...ids, ...next });
      return next === undefined ? undefined : structuredClone(next);
    }
    return this.#change(async (entries) => {
      const raw = entries.get(nid.key);
      const loaded = await this.#load(nid.key, raw);
      if (loaded?.unreadable !== undefined) {
        // Never write over a pointer to secrets that may still be there.
        throw new KeyringUnavailableError(loaded.unreadable);
      }
      const current = loaded?.record.entry;
      const next = apply(current);
      const pointer = loaded?.pointer;
      if (next === undefined) {
        if (pointer) await this.#forget(nid.name, pointer);
        return { changed: entries.delete(nid.key), result: undefined };
      }
      if (next === current) return { changed: false, result: structuredClone(current) };
      // An entry with secrets stays where they are; a new sign-in goes where the setting says.
      const where: 'file' | 'keyring' | 'session' =
        loaded !== undefined && hasSecret(current) ? (pointer ? 'keyring' : 'file') : fallback;
      if (where === 'session') {
        if (pointer) await this.#forget(nid.name, pointer);
        this.#memory.set(nid.key, { ...ids, ...next });
        return { changed: entries.delete(nid.key), result: structuredClone(next) };
      }
      let stored: Record<string, unknown> = { ...ids, ...next };
      if (where === 'keyring' && hasSecret(next)) {
        const { plain, secret } = splitSecrets(next);
        const account = pointer?.account ?? keyringAccount(this.file, nid.key, nid.name);
        const rev = newRev();
        try {
          await this.#keyring.set(account, encodeSecret(rev, secret));
          this.#secrets.set(account, { rev, secret });
          stored = { ...ids, ...plain, secret: { store: 'keyring', account, rev } };
        } catch (error) {
          if (this.tokenStorage === 'keyring') {
            throw new KeyringUnavailableError(reasonOf(error), error);
          }
          this.#fellBack = `the OS keychain failed a write (${reasonOf(error)}): tokens are kept in the auth file`;
          this.#warn(
            `the OS keychain could not keep the sign-in of ${quote(nid.name)} ` +
              `(${reasonOf(error)}): it is kept in the auth file ${quote(this.file)} instead`,
          );
        }
      }
      if (pointer && stored.secret === undefined) await this.#forget(nid.name, pointer);
      entries.set(nid.key, stored);
      return { changed: true, result: structuredClone(next) };
    });
  }

  /**
   * Removes every entry of one server name (every scope, every URL): signing out. Secrets in the
   * keychain are removed with their entries (one that cannot be removed is named in a warning).
   * Returns what was removed, so a caller can revoke those tokens.
   * @param name - the server name
   * @returns the removed entries, secrets included (those the keychain could still give)
   * @throws as {@link AuthStore.update} does
   */
  async remove(name: string): Promise<AuthRecord[]> {
    checkServerName(name);
    const removed: AuthRecord[] = [];
    for (const [key, raw] of [...this.#memory]) {
      const record = this.#recordOf(key, raw);
      if (record?.name !== name) continue;
      this.#memory.delete(key);
      removed.push(record);
    }
    // Nothing of this name in the file: no lock taken, no folder made.
    const names = [...(await this.#read()).entries()].map(([key, raw]) => this.#recordOf(key, raw));
    if (!names.some((record) => record?.name === name)) return removed;
    return this.#change(async (entries) => {
      let changed = false;
      for (const [key, raw] of [...entries]) {
        const loaded = await this.#load(key, raw);
        if (loaded?.record.name !== name) continue;
        if (loaded.pointer) await this.#forget(name, loaded.pointer);
        entries.delete(key);
        changed = true;
        removed.push(loaded.record);
      }
      return { changed, result: removed };
    });
  }

  /**
   * Lists every entry without its secrets: for a status line ("signed in" or "no sign-in").
   * @returns one row per entry, sorted by key
   * @throws `LockedFileError` of `@garuda/mcp-trust` (`TRUST_FILE_UNREADABLE`) when the file exists
   *   but cannot be read
   */
  async list(): Promise<AuthEntryInfo[]> {
    const rows: AuthEntryInfo[] = [];
    for (const [key, raw] of this.#memory) {
      const record = this.#recordOf(key, raw);
      if (record) rows.push(infoOf(record, 'session'));
    }
    for (const [key, raw] of await this.#read()) {
      if (this.#memory.has(key)) continue;
      const loaded = await this.#load(key, raw);
      if (loaded) rows.push(infoOf(loaded.record, loaded.pointer ? 'keyring' : 'file'));
    }
    return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  // What `auto` resolves to (probed once), or the storage asked for.
  #chosen(): Promise<TokenStorageInfo> {
    this.#choice ??= chooseStorage(this.tokenStorage, this.#keyring);
    return this.#choice;
  }

  // A raw file entry with the secrets of its keychain pointer joined in. A secret that is gone,
  // or a keychain that cannot be read, leaves the entry without secrets (reported once).
  async #load(
    key: string,
    raw: unknown,
  ): Promise<{ record: AuthRecord; pointer?: KeyringPointer; unreadable?: string } | undefined> {
    const record = this.#recordOf(key, raw);
    if (!record) return undefined;
    const pointer = pointerOf(raw);
    if (!pointer) return { record };
    const cached = this.#secrets.get(pointer.account);
    if (cached !== undefined && cached.rev === pointer.rev) {
      return { record: { ...record, entry: joinSecrets(record.entry, cached.secret) }, pointer };
    }
    let text: string | undefined;
    try {
      text = await this.#keyring.get(pointer.account);
    } catch (error) {
      const reason = reasonOf(error);
      this.#reportOnce(
        key,
        'unreadable',
        `its tokens are in the OS keychain, which cannot be read (${reason}): it counts as not signed in`,
      );
      return { record, pointer, unreadable: reason };
    }
    const secret = text === undefined ? undefined : decodeSecret(text);
    if (secret === undefined) {
      this.#reportOnce(
        key,
        'gone',
        text === undefined
          ? 'its tokens are no longer in the OS keychain: sign in again'
          : 'its secret in the OS keychain cannot be read by this version: sign in again',
      );
      return { record, pointer };
    }
    // The keychain may hold a newer secret than the file's revision (a writer stopped between
    // the two writes): it is the one to use, and it is not cached under the file's revision.
    this.#secrets.set(pointer.account, { rev: pointer.rev, secret });
    return { record: { ...record, entry: joinSecrets(record.entry, secret) }, pointer };
  }

  // Removes a secret from the keychain; a failure is a warning (the file entry goes anyway).
  async #forget(name: string, pointer: KeyringPointer): Promise<void> {
    this.#secrets.delete(pointer.account);
    try {
      await this.#keyring.delete(pointer.account);
    } catch (error) {
      this.#warn(
        `the OS keychain still holds the tokens of ${quote(name)} (service garuda-mcp, account ` +
          `${quote(pointer.account)}): ${reasonOf(error)}. Remove them with your keychain manager`,
      );
    }
  }

  // A raw entry the store understands, or undefined (reported once per key).
  #recordOf(key: string, raw: unknown): AuthRecord | undefined {
    if (raw === undefined) return undefined;
    let record: AuthRecord | undefined;
    if (isPlainObject(raw)) {
      try {
        const nid = normalizeId(raw as unknown as AuthEntryId);
        if (nid.key === key) {
          const { entry, dropped } = readStoredEntry(raw);
          if (dropped.length > 0)
            this.#reportOnce(
              key,
              'dropped',
              `its ${dropped.join(', ')} could not be read and ${dropped.length === 1 ? 'is' : 'are'} ignored`,
            );
          record = { key, scope: nid.scope, name: nid.name, url: nid.url, entry };
        }
      } catch {
        record = undefined;
      }
    }
    if (!record)
      this.#reportOnce(
        key,
        'unknown',
        'it cannot be read by this version and is ignored (kept in the file)',
      );
    return record;
  }

  #reportOnce(key: string, kind: string, what: string): void {
    if (this.#reported.has(`${kind} ${key}`)) return;
    this.#reported.add(`${kind} ${key}`);
    this.#warn(`the auth file ${quote(this.file)} has an entry ${quote(key)}: ${what}`);
  }

  #warn(message: string): void {
    log(this.logger, 'warn', message);
  }

  // Plain reads need no lock: the file is only ever replaced by an atomic rename.
  async #read(): Promise<Map<string, unknown>> {
    try {
      return (await this.#store.load()) ?? new Map();
    } catch (error) {
      throw ownOption(error);
    }
  }

  async #change<R>(
    op: (entries: Map<string, unknown>) => Promise<{ changed: boolean; result: R }>,
  ): Promise<R> {
    // What `op` throws (a caller's `update` function included) comes out unchanged.
    let failed: { error: unknown } | undefined;
    try {
      return await this.#store.update(async (current) => {
        const entries = current ?? new Map<string, unknown>();
        try {
          const { changed, result } = await op(entries);
          return { write: changed ? entries : undefined, result };
        } catch (error) {
          failed = { error };
          throw error;
        }
      });
    } catch (error) {
      if (failed && failed.error === error) throw error;
      throw ownOption(error);
    }
  }
}

// What the store's setting means here: `auto` probes the keychain once.
async function chooseStorage(
  requested: TokenStorage,
  keyring: KeyringBackend,
): Promise<TokenStorageInfo> {
  switch (requested) {
    case 'file':
      return {
        requested,
        mode: 'file',
        available: true,
        reason: 'tokens are kept in the auth file',
      };
    case 'session':
      return {
        requested,
        mode: 'session',
        available: true,
        reason: 'tokens are kept in memory for this process only',
      };
    case 'keyring': {
      const { ok, reason } = await keyring.check();
      return { requested, mode: 'keyring', available: ok, reason };
    }
    case 'auto': {
      const { ok, reason } = await keyring.check();
      return ok
        ? { requested, mode: 'keyring', available: true, reason }
        : {
            requested,
            mode: 'file',
            available: true,
            reason: `no OS keychain answered: ${reason}`,
          };
    }
  }
}

// The keychain of a store given no environment: it never answers.
function noKeyring(): KeyringBackend {
  const reason = 'the auth store was given no environment to reach the OS keychain with';
  const fail = () => Promise.reject(new KeyringUnavailableError(reason));
  return {
    get: fail,
    set: fail,
    delete: fail,
    check: () => Promise.resolve({ ok: false, reason }),
    close: () => undefined,
  };
}

// The lock and file errors of LockedJsonFile pass through as they are (LockedFileError of
// @garuda/mcp-trust, "auth file" in their messages). An option it refuses is an option of this
// store, so it becomes this package's OAUTH_INVALID_OPTION, with the same message.
function ownOption(error: unknown): unknown {
  if (!TrustStoreError.isInstance(error) || error.code !== TrustStoreErrorCode.INVALID_OPTION)
    return error;
  return invalidOption(error.message);
}

// The fields in file order, without `updatedAt`, for "did anything change".
function canonical(entry: AuthEntry): string {
  return JSON.stringify(ENTRY_FIELDS.filter((f) => f !== 'updatedAt').map((f) => entry[f] ?? null));
}

function ordered(entry: AuthEntry): AuthEntry {
  const out: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) if (entry[field] !== undefined) out[field] = entry[field];
  return out as AuthEntry;
}

function infoOf(record: AuthRecord, storage: AuthEntryInfo['storage']): AuthEntryInfo {
  const { entry } = record;
  const info: AuthEntryInfo = {
    key: record.key,
    scope: record.scope,
    name: record.name,
    url: record.url,
    signedIn: entry.tokens !== undefined,
    refreshable: typeof entry.tokens?.refresh_token === 'string',
    signInInProgress: entry.codeVerifier !== undefined,
    storage,
  };
  if (entry.client) info.clientId = entry.client.client_id;
  const issuer = entry.tokens?.issuer ?? entry.client?.issuer;
  if (typeof issuer === 'string') info.issuer = issuer;
  if (entry.port !== undefined) info.port = entry.port;
  const savedAt = entry.tokensSavedAt === undefined ? NaN : Date.parse(entry.tokensSavedAt);
  const expiresIn = entry.tokens?.expires_in;
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && !Number.isNaN(savedAt)) {
    const expires = new Date(savedAt + expiresIn * 1000);
    if (!Number.isNaN(expires.getTime())) info.expiresAt = expires.toISOString();
  }
  if (entry.updatedAt !== undefined) info.updatedAt = entry.updatedAt;
  return info;
}
