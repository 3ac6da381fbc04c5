import { kindOf, log, quote } from '@garuda/internal';
import { LockedJsonFile, TrustStoreError } from '@garuda/mcp-trust';
import {
  ENTRY_FIELDS,
  isPlainObject,
  readStoredEntry,
  toStoredEntry,
  type AuthEntry,
} from './auth-entry.js';
import { authFileFromJson, authFileToJson } from './auth-file.js';
import { checkServerName, normalizeId, type AuthEntryId } from './auth-key.js';
import { invalidOption } from './errors.js';
import type { OAuthLogger } from './logger.js';

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
 * registered clients, tokens, callback ports, discovery results, and the code verifier and
 * `state` of a sign-in in progress. Tokens are never written anywhere else.
 *
 * - The file has mode 0600 in a folder created with mode 0700. Every write goes to a temporary
 *   file that is flushed and renamed over the old one, so readers see the old or the new file,
 *   never half of one.
 * - Every change is a read-modify-write under a cross-process lock (`<file>.lock`), so two
 *   processes signing in to two servers at once keep both sign-ins.
 * - A corrupt file is moved aside to `<file>.corrupt-<UTC time>` with a warning, and the store
 *   goes on empty: you are asked to sign in again, nothing crashes.
 * - Entries are keyed `scope::name::url` ({@link AuthEntryId}).
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

  readonly #store: LockedJsonFile<Map<string, unknown>>;
  readonly #reported = new Set<string>();

  /**
   * @param file - path of the auth file, for example `<home>/mcp-auth.json`; made absolute here
   * @param options - logger, lock timeout, stale time and clock
   * @throws {@link OAuthFlowError} `INVALID_OPTION` when `file` is empty or an option is out of range
   */
  constructor(file: string, options: AuthStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw invalidOption(`options must be an object, got ${kindOf(options)}`);
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
  }

  /**
   * The current time from the injected clock.
   * @returns a valid `Date`
   * @throws {@link OAuthFlowError} `INVALID_OPTION` when the clock returns something else
   */
  now(): Date {
    try {
      return this.#store.now();
    } catch (error) {
      throw ownOption(error);
    }
  }

  /**
   * Reads one server's entry. Takes no lock: the file is only ever replaced by an atomic rename.
   * @param id - scope, name and URL of the server
   * @returns a fresh copy of the entry, or `undefined`
   * @throws {@link OAuthFlowError} `INVALID_OPTION` for an unusable id
   * @throws `LockedFileError` of `@garuda/mcp-trust` (`FILE_UNREADABLE`) when the file exists
   *   but cannot be read
   */
  async get(id: AuthEntryId): Promise<AuthEntry | undefined> {
    const nid = normalizeId(id);
    return this.#recordOf(nid.key, (await this.#read()).get(nid.key))?.entry;
  }

  /**
   * Reads, changes and writes one server's entry while holding the cross-process lock, so no
   * other process's change can slip in between.
   * @param id - scope, name and URL of the server
   * @param fn - gets a copy of the current entry (`undefined` when absent) and returns the new
   *   one, or `undefined` to remove it. It must be synchronous and quick: the lock is held while
   *   it runs. If it throws, nothing is written and the error comes out of `update`.
   * @returns a copy of the new entry, or `undefined` when it is now absent
   * @throws {@link OAuthFlowError} `INVALID_OPTION`, {@link OAuthFlowError} `INVALID_ENTRY` for unusable input
   * @throws `LockedFileError` of `@garuda/mcp-trust`, passed through: `LOCK_TIMEOUT` when another
   *   process holds the lock for too long, `WRITE_FAILED` when the file cannot be written…
   */
  async update(
    id: AuthEntryId,
    fn: (current: AuthEntry | undefined) => AuthEntry | undefined,
  ): Promise<AuthEntry | undefined> {
    const nid = normalizeId(id);
    if (typeof fn !== 'function') {
      throw invalidOption(`update needs a function, got ${kindOf(fn)}`);
    }
    return this.#change((entries) => {
      const current = this.#recordOf(nid.key, entries.get(nid.key))?.entry;
      const next: unknown = fn(current === undefined ? undefined : structuredClone(current));
      if (next === undefined) {
        return { changed: entries.delete(nid.key), result: undefined };
      }
      if (next !== null && typeof next === 'object' && 'then' in next) {
        throw invalidOption('update needs a synchronous function (it returned a promise)');
      }
      const stored = toStoredEntry(next);
      // An unchanged entry is not written again: no disk write, no new file.
      if (current !== undefined && canonical(current) === canonical(stored)) {
        return { changed: false, result: current };
      }
      const written = ordered({ ...stored, updatedAt: this.now().toISOString() });
      entries.set(nid.key, { scope: nid.scope, name: nid.name, url: nid.url, ...written });
      return { changed: true, result: structuredClone(written) };
    });
  }

  /**
   * Removes every entry of one server name (every scope, every URL): signing out. Returns what
   * was removed, so a caller can revoke those tokens.
   * @param name - the server name
   * @returns the removed entries, secrets included
   * @throws as {@link AuthStore.update} does
   */
  async remove(name: string): Promise<AuthRecord[]> {
    checkServerName(name);
    return this.#change((entries) => {
      const removed: AuthRecord[] = [];
      for (const [key, raw] of entries) {
        const record = this.#recordOf(key, raw);
        if (record?.name !== name) continue;
        entries.delete(key);
        removed.push(record);
      }
      return { changed: removed.length > 0, result: removed };
    });
  }

  /**
   * Lists every entry without its secrets: for a status line ("signed in" or "no sign-in").
   * @returns one row per entry, sorted by key
   * @throws `LockedFileError` of `@garuda/mcp-trust` (`FILE_UNREADABLE`) when the file exists
   *   but cannot be read
   */
  async list(): Promise<AuthEntryInfo[]> {
    const rows: AuthEntryInfo[] = [];
    for (const [key, raw] of await this.#read()) {
      const record = this.#recordOf(key, raw);
      if (record) rows.push(infoOf(record));
    }
    return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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
              `its ${dropped.join(', ')} could not be read and ${dropped.length === 1 ? 'is' : 'are'} ignored`,
            );
          record = { key, scope: nid.scope, name: nid.name, url: nid.url, entry };
        }
      } catch {
        record = undefined;
      }
    }
    if (!record)
      this.#reportOnce(key, 'it cannot be read by this version and is ignored (kept in the file)');
    return record;
  }

  #reportOnce(key: string, what: string): void {
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    log(
      this.logger,
      'warn',
      `the auth file ${quote(this.file)} has an entry ${quote(key)}: ${what}`,
    );
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
    op: (entries: Map<string, unknown>) => { changed: boolean; result: R },
  ): Promise<R> {
    // What `op` throws (a caller's `update` function included) comes out unchanged.
    let failed: { error: unknown } | undefined;
    try {
      return await this.#store.update((current) => {
        const entries = current ?? new Map<string, unknown>();
        try {
          const { changed, result } = op(entries);
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

// The lock and file errors of LockedJsonFile pass through as they are (LockedFileError of
// @garuda/mcp-trust, "auth file" in their messages). An option it refuses is an option of this
// store, so it becomes this package's INVALID_OPTION, with the same message.
function ownOption(error: unknown): unknown {
  if (!TrustStoreError.isInstance(error) || error.code !== 'INVALID_OPTION') return error;
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

function infoOf(record: AuthRecord): AuthEntryInfo {
  const { entry } = record;
  const info: AuthEntryInfo = {
    key: record.key,
    scope: record.scope,
    name: record.name,
    url: record.url,
    signedIn: entry.tokens !== undefined,
    refreshable: typeof entry.tokens?.refresh_token === 'string',
    signInInProgress: entry.codeVerifier !== undefined,
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
