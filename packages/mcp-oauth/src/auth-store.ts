import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {
  ENTRY_FIELDS,
  isPlainObject,
  readStoredEntry,
  toStoredEntry,
  type AuthEntry,
} from './auth-entry.js';
import { parseAuthFile, serializeAuthFile } from './auth-file.js';
import { checkServerName, normalizeId, type AuthEntryId } from './auth-key.js';
import {
  AuthFileUnreadableError,
  AuthFileWriteError,
  CorruptFileMoveError,
  errnoCode,
  InvalidOptionError,
  kindOf,
  LockCompromisedError,
  quote,
} from './errors.js';
import { acquireLock, type HeldLock } from './file-lock.js';
import { log, type OAuthLogger } from './logger.js';

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
// proper-lockfile refuses anything shorter.
const MIN_LOCK_STALE_MS = 2_000;

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

type ReadResult =
  | { kind: 'missing' }
  | { kind: 'ok'; entries: Map<string, unknown> }
  | { kind: 'corrupt'; reason: string };

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

  readonly #lockTimeoutMs: number;
  readonly #lockStaleMs: number;
  readonly #now: () => Date;
  // Changes from this instance run one after the other instead of polling each other's lock.
  #queue: Promise<unknown> = Promise.resolve();
  #folderChecked = false;
  #modeChecked = false;
  readonly #reported = new Set<string>();

  /**
   * @param file - path of the auth file, for example `<home>/mcp-auth.json`; made absolute here
   * @param options - logger, lock timeout, stale time and clock
   * @throws {@link InvalidOptionError} when `file` is empty or an option is out of range
   */
  constructor(file: string, options: AuthStoreOptions = {}) {
    if (typeof file !== 'string' || file.length === 0 || file.includes('\0')) {
      throw new InvalidOptionError(
        `the auth file path must be a non-empty string, got ${typeof file === 'string' ? quote(file) : kindOf(file)}`,
      );
    }
    if (typeof options !== 'object' || options === null) {
      throw new InvalidOptionError(`options must be an object, got ${kindOf(options)}`);
    }
    this.file = path.resolve(file);
    this.lockFile = `${this.file}.lock`;
    this.logger = options.logger;
    this.#lockTimeoutMs = checkMs(
      'lockTimeoutMs',
      options.lockTimeoutMs ?? DEFAULT_AUTH_LOCK_TIMEOUT_MS,
      0,
    );
    this.#lockStaleMs = checkMs(
      'lockStaleMs',
      options.lockStaleMs ?? DEFAULT_AUTH_LOCK_STALE_MS,
      MIN_LOCK_STALE_MS,
    );
    const now = options.now ?? (() => new Date());
    if (typeof now !== 'function') throw new InvalidOptionError('options.now must be a function');
    this.#now = now;
  }

  /**
   * The current time from the injected clock.
   * @returns a valid `Date`
   * @throws {@link InvalidOptionError} when the clock returns something else
   */
  now(): Date {
    const date: unknown = this.#now();
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      throw new InvalidOptionError('options.now must return a valid Date');
    }
    return date;
  }

  /**
   * Reads one server's entry. Takes no lock: the file is only ever replaced by an atomic rename.
   * @param id - scope, name and URL of the server
   * @returns a fresh copy of the entry, or `undefined`
   * @throws {@link InvalidOptionError} for an unusable id
   * @throws {@link AuthFileUnreadableError} when the file exists but cannot be read
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
   * @throws {@link InvalidOptionError}, {@link InvalidEntryError} for unusable input
   * @throws {@link LockTimeoutError} when another process holds the lock for too long
   * @throws {@link AuthFileWriteError} when the file cannot be written
   */
  async update(
    id: AuthEntryId,
    fn: (current: AuthEntry | undefined) => AuthEntry | undefined,
  ): Promise<AuthEntry | undefined> {
    const nid = normalizeId(id);
    if (typeof fn !== 'function') {
      throw new InvalidOptionError(`update needs a function, got ${kindOf(fn)}`);
    }
    return this.#change((entries) => {
      const current = this.#recordOf(nid.key, entries.get(nid.key))?.entry;
      const next: unknown = fn(current === undefined ? undefined : structuredClone(current));
      if (next === undefined) {
        return { changed: entries.delete(nid.key), result: undefined };
      }
      if (next !== null && typeof next === 'object' && 'then' in next) {
        throw new InvalidOptionError('update needs a synchronous function (it returned a promise)');
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
   * @throws {@link AuthFileUnreadableError} when the file exists but cannot be read
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

  // Plain reads need no lock: the file is only ever replaced by rename, which is atomic. Only a
  // corrupt file needs the lock, to move it aside without racing a writer.
  async #read(): Promise<Map<string, unknown>> {
    const first = await this.#readFile();
    if (first.kind === 'missing') return new Map();
    if (first.kind === 'ok') return first.entries;
    const lock = await this.#lock();
    try {
      return await this.#readLocked();
    } finally {
      await lock.release();
    }
  }

  async #change<R>(
    op: (entries: Map<string, unknown>) => { changed: boolean; result: R },
  ): Promise<R> {
    const run = this.#queue.then(() => this.#changeNow(op));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #changeNow<R>(
    op: (entries: Map<string, unknown>) => { changed: boolean; result: R },
  ): Promise<R> {
    await this.#ensureFolder();
    const lock = await this.#lock();
    try {
      const entries = await this.#readLocked();
      const { changed, result } = op(entries);
      if (changed) {
        const lost = lock.compromised();
        if (lost) throw new LockCompromisedError(this.file, lost);
        await this.#write(entries);
      }
      return result;
    } finally {
      await lock.release();
    }
  }

  #lock(): Promise<HeldLock> {
    return acquireLock(this.file, {
      lockFile: this.lockFile,
      timeoutMs: this.#lockTimeoutMs,
      staleMs: this.#lockStaleMs,
      logger: this.logger,
    });
  }

  // Call only while holding the lock.
  async #readLocked(): Promise<Map<string, unknown>> {
    const result = await this.#readFile();
    if (result.kind === 'ok') return result.entries;
    if (result.kind === 'corrupt') await this.#moveAside(result.reason);
    return new Map();
  }

  async #readFile(): Promise<ReadResult> {
    let text: string;
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(this.file, fsConstants.O_RDONLY);
      if (!this.#modeChecked) {
        this.#modeChecked = true;
        const { mode } = await handle.stat();
        if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
          log(
            this.logger,
            'warn',
            `the auth file ${quote(this.file)} can be read by other users (mode ` +
              `${(mode & 0o777).toString(8).padStart(3, '0')}): run chmod 600 on it; its next ` +
              `change writes it with mode 600`,
          );
        }
      }
      text = await handle.readFile('utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
      throw new AuthFileUnreadableError(this.file, error);
    } finally {
      await handle?.close().catch(() => undefined);
    }
    const parsed = parseAuthFile(text);
    return parsed.ok
      ? { kind: 'ok', entries: parsed.entries }
      : { kind: 'corrupt', reason: parsed.reason };
  }

  async #moveAside(reason: string): Promise<void> {
    // ISO time without ":" and ".", which some file systems refuse in names.
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    const base = `${this.file}.corrupt-${stamp}`;
    let target = base;
    // rename() replaces an existing target: never let one corrupt file replace another.
    for (let i = 1; i < 1000 && (await exists(target)); i++) target = `${base}-${i}`;
    try {
      await fs.rename(this.file, target);
    } catch (error) {
      throw new CorruptFileMoveError(this.file, target, error);
    }
    log(
      this.logger,
      'warn',
      `the auth file ${quote(this.file)} could not be used (${reason}). It was moved to ` +
        `${quote(target)} and the store starts empty: you will be asked to sign in to your MCP ` +
        `servers again. The moved file may hold tokens: delete it when you no longer need it`,
    );
  }

  async #ensureFolder(): Promise<void> {
    const dir = path.dirname(this.file);
    let created: string | undefined;
    try {
      created = await fs.mkdir(dir, { recursive: true, mode: FOLDER_MODE });
    } catch (error) {
      throw new AuthFileWriteError('create the folder', dir, error);
    }
    if (this.#folderChecked) return;
    this.#folderChecked = true;
    // A folder we did not create is the person's choice and is not chmod-ed, but one that
    // others can write to lets them replace the auth file, so say so.
    if (created !== undefined || process.platform === 'win32') return;
    try {
      const stat = await fs.stat(dir);
      if ((stat.mode & 0o022) !== 0) {
        log(
          this.logger,
          'warn',
          `the folder ${quote(dir)} of the auth file can be written by other users (mode ` +
            `${(stat.mode & 0o777).toString(8).padStart(3, '0')}): run chmod 700 on it`,
        );
      }
    } catch {
      // mkdir just succeeded; a failing stat changes nothing about the write.
    }
  }

  async #write(entries: ReadonlyMap<string, unknown>): Promise<void> {
    try {
      await writeFileAtomic(this.file, serializeAuthFile(entries), {
        mode: FILE_MODE,
        fsync: true,
      });
    } catch (error) {
      throw new AuthFileWriteError('write the auth file', this.file, error);
    }
    await syncFolder(path.dirname(this.file));
  }
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

function checkMs(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new InvalidOptionError(
      `options.${name} must be a finite number of milliseconds, at least ${min}, got ` +
        `${typeof value === 'number' ? String(value) : kindOf(value)}`,
    );
  }
  return value;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

// The rename is atomic; flushing the folder makes it durable across a power loss too. Not every
// platform can open a folder for that (Windows), and a failure here loses nothing.
async function syncFolder(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    // Best effort only.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
