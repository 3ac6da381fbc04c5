import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {
  CorruptFileMoveError,
  errnoCode,
  InvalidOptionError,
  kindOf,
  LockCompromisedError,
  quote,
  TrustFileUnreadableError,
  TrustFileWriteError,
} from './errors.js';
import { acquireLock, type HeldLock } from './file-lock.js';
import { toStoredValue, type JsonValue } from './json-value.js';
import { log, type TrustStoreLogger } from './logger.js';
import { parseTrustFile, serializeTrustFile } from './trust-file.js';
import { validateKey, validatePrefix } from './validate-key.js';

/** Options of {@link TrustStore}. */
export interface TrustStoreOptions {
  /** Receives warnings (a corrupt file moved aside, a folder others can write to) and debug notes. */
  logger?: TrustStoreLogger;
  /** How long a change waits for another process's lock before it fails. Default 10 000 ms. */
  lockTimeoutMs?: number;
  /**
   * After how long without a refresh a lock counts as left behind by a dead process and is taken
   * over. A live holder refreshes it every `lockStaleMs / 2`. At least 2 000; default 5 000 ms,
   * so a lock left by a killed process is taken over within the default `lockTimeoutMs`.
   */
  lockStaleMs?: number;
  /** The clock, for the names of moved-aside files and for `at` in MCP entries. */
  now?: () => Date;
}

/** Default of {@link TrustStoreOptions.lockTimeoutMs}. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** Default of {@link TrustStoreOptions.lockStaleMs}. */
export const DEFAULT_LOCK_STALE_MS = 5_000;
// proper-lockfile refuses anything shorter.
const MIN_LOCK_STALE_MS = 2_000;

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

type ReadResult =
  | { kind: 'missing' }
  | { kind: 'ok'; entries: Map<string, JsonValue> }
  | { kind: 'corrupt'; reason: string };

/**
 * A small key-value store of JSON values in one file, safe to share between processes: the
 * record of which servers (or hooks, or commands) a person trusted.
 *
 * - The file is `{ "version": 1, "entries": { … } }`, mode 0600, in a folder created with mode
 *   0700. Every write goes to a temporary file that is flushed to disk and renamed over the old
 *   one, so readers see the old or the new file, never half of one.
 * - Every change is a read-modify-write under a cross-process lock (`<file>.lock`), so two
 *   processes never lose each other's entries. Reads take no lock.
 * - A corrupt file is moved aside to `<file>.corrupt-<UTC time>` with a warning, and the store
 *   goes on empty: the trusted servers will be asked about again.
 *
 * @example
 * ```ts
 * const store = new TrustStore(path.join(home, 'trust.json'), { logger: console });
 * await store.set('hooks::format-on-save', { def: 'ab12…', at: new Date().toISOString() });
 * await store.get('hooks::format-on-save'); // → { def: 'ab12…', at: '…' }
 * ```
 */
export class TrustStore {
  /** The trust file, made absolute. */
  readonly file: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockFile: string;
  /** The logger given in the options, so helpers built on the store can report through it. */
  readonly logger: TrustStoreLogger | undefined;

  readonly #lockTimeoutMs: number;
  readonly #lockStaleMs: number;
  readonly #now: () => Date;
  // Changes from this instance run one after the other instead of polling each other's lock.
  #queue: Promise<unknown> = Promise.resolve();
  #folderChecked = false;

  /**
   * @param file - path of the trust file, for example `<home>/trust.json`; made absolute here
   * @param options - logger, lock timeout, stale time and clock
   * @throws {@link InvalidOptionError} when `file` is empty or an option is out of range
   */
  constructor(file: string, options: TrustStoreOptions = {}) {
    if (typeof file !== 'string' || file.length === 0 || file.includes('\0')) {
      throw new InvalidOptionError(
        `the trust file path must be a non-empty string, got ${typeof file === 'string' ? quote(file) : kindOf(file)}`,
      );
    }
    this.file = path.resolve(file);
    this.lockFile = `${this.file}.lock`;
    this.logger = options.logger;
    this.#lockTimeoutMs = checkMs(
      'lockTimeoutMs',
      options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      0,
    );
    this.#lockStaleMs = checkMs(
      'lockStaleMs',
      options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
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
   * Reads one entry.
   * @param key - the entry's key
   * @returns the stored value (a fresh copy), or `undefined` when there is none
   * @throws {@link InvalidKeyError} for an unusable key
   * @throws {@link TrustFileUnreadableError} when the file exists but cannot be read
   * @throws {@link LockTimeoutError} only when the file is corrupt and must be moved aside while
   *   another process holds the lock
   */
  async get(key: string): Promise<JsonValue | undefined> {
    validateKey(key);
    return (await this.#read()).get(key);
  }

  /**
   * Lists the entries whose key starts with `prefix`.
   * @param prefix - a key prefix; `''` (the default) lists everything
   * @returns `[key, value]` pairs sorted by key (UTF-16 code unit order)
   * @throws {@link InvalidKeyError} for an unusable prefix
   * @throws {@link TrustFileUnreadableError} when the file exists but cannot be read
   */
  async entries(prefix = ''): Promise<[string, JsonValue][]> {
    validatePrefix(prefix);
    const out = [...(await this.#read())].filter(([key]) => key.startsWith(prefix));
    return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Stores `value` under `key`, replacing what was there, under the cross-process lock.
   * @param key - the entry's key
   * @param value - any JSON value; it is copied before this returns
   * @throws {@link InvalidKeyError}, {@link InvalidValueError} for unusable input
   * @throws {@link LockTimeoutError} when another process holds the lock for too long
   * @throws {@link TrustFileWriteError} when the file cannot be written
   */
  async set(key: string, value: JsonValue): Promise<void> {
    validateKey(key);
    const stored = toStoredValue(value);
    await this.#change((entries) => {
      entries.set(key, stored);
      return { changed: true, result: undefined };
    });
  }

  /**
   * Removes one entry, under the cross-process lock.
   * @param key - the entry's key
   * @returns whether there was an entry to remove
   * @throws as {@link TrustStore.set} does
   */
  async delete(key: string): Promise<boolean> {
    validateKey(key);
    return this.#change((entries) => {
      const had = entries.delete(key);
      return { changed: had, result: had };
    });
  }

  /**
   * Reads, changes and writes one entry while holding the cross-process lock, so no other
   * process's change can slip in between.
   * @param key - the entry's key
   * @param fn - gets the current value (`undefined` when absent) and returns the new one, or
   *   `undefined` to remove the entry. It must be synchronous and quick: the lock is held while
   *   it runs. If it throws, nothing is written and the error comes out of `update`.
   * @returns the new value (a copy), or `undefined` when the entry is now absent
   * @throws as {@link TrustStore.set} does, and whatever `fn` throws
   */
  async update(
    key: string,
    fn: (current: JsonValue | undefined) => JsonValue | undefined,
  ): Promise<JsonValue | undefined> {
    validateKey(key);
    if (typeof fn !== 'function') {
      throw new InvalidOptionError(`update needs a function, got ${kindOf(fn)}`);
    }
    return this.#change((entries) => {
      const current = entries.get(key);
      // Taken before `fn` runs: `fn` may change the object it gets in place and return it.
      const before = current === undefined ? undefined : JSON.stringify(current);
      const next = fn(current);
      if (next === undefined) {
        const had = entries.delete(key);
        return { changed: had, result: undefined };
      }
      const stored = toStoredValue(next);
      // An unchanged value is not written again: no disk write, no new file mode or owner.
      if (before === JSON.stringify(stored)) {
        return { changed: false, result: stored };
      }
      entries.set(key, stored);
      return { changed: true, result: stored };
    });
  }

  // Plain reads need no lock: the file is only ever replaced by rename, which is atomic. Only a
  // corrupt file needs the lock, to move it aside without racing a writer.
  async #read(): Promise<Map<string, JsonValue>> {
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
    op: (entries: Map<string, JsonValue>) => { changed: boolean; result: R },
  ): Promise<R> {
    const run = this.#queue.then(() => this.#changeNow(op));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #changeNow<R>(
    op: (entries: Map<string, JsonValue>) => { changed: boolean; result: R },
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
  async #readLocked(): Promise<Map<string, JsonValue>> {
    const result = await this.#readFile();
    if (result.kind === 'ok') return result.entries;
    if (result.kind === 'corrupt') await this.#moveAside(result.reason);
    return new Map();
  }

  async #readFile(): Promise<ReadResult> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
      throw new TrustFileUnreadableError(this.file, error);
    }
    const parsed = parseTrustFile(text);
    return parsed.ok
      ? { kind: 'ok', entries: parsed.entries }
      : { kind: 'corrupt', reason: parsed.reason };
  }

  async #moveAside(reason: string): Promise<void> {
    // ISO time without ":" and ".", which some filesystems refuse in names.
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
      `the trust file ${quote(this.file)} could not be used (${reason}). It was moved to ` +
        `${quote(target)} and the store starts empty: the servers you trusted will be asked ` +
        `about again.`,
    );
  }

  async #ensureFolder(): Promise<void> {
    const dir = path.dirname(this.file);
    let created: string | undefined;
    try {
      created = await fs.mkdir(dir, { recursive: true, mode: FOLDER_MODE });
    } catch (error) {
      throw new TrustFileWriteError('create the folder', dir, error);
    }
    if (this.#folderChecked) return;
    this.#folderChecked = true;
    // A folder we did not create is the person's choice: it is not chmod-ed, but a folder
    // others can write to lets them replace the trust file, so say so.
    if (created !== undefined) return;
    try {
      const stat = await fs.stat(dir);
      if ((stat.mode & 0o022) !== 0) {
        log(
          this.logger,
          'warn',
          `the folder ${quote(dir)} of the trust file can be written by other users ` +
            `(mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}), who could replace ` +
            `what you trusted: run chmod 700 on it`,
        );
      }
    } catch {
      // mkdir just succeeded; a failing stat changes nothing about the write.
    }
  }

  async #write(entries: ReadonlyMap<string, JsonValue>): Promise<void> {
    try {
      await writeFileAtomic(this.file, serializeTrustFile(entries), {
        mode: FILE_MODE,
        fsync: true,
      });
    } catch (error) {
      throw new TrustFileWriteError('write the trust file', this.file, error);
    }
    await syncFolder(path.dirname(this.file));
  }
}

function checkMs(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new InvalidOptionError(
      `options.${name} must be a finite number of milliseconds, at least ${min}, got ${typeof value === 'number' ? String(value) : kindOf(value)}`,
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
