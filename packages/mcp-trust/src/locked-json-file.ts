import { constants as fsConstants, statSync, type BigIntStats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { errnoCode, kindOf, log, quote } from '@garuda/internal';
import {
  DEFAULT_LABEL,
  fileUnreadable,
  invalidOption,
  moveAsideFailed,
  writeFailed,
} from './errors.js';
import {
  checkMs,
  DEFAULT_LOCK_STALE_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  MIN_LOCK_STALE_MS,
  withFileLock,
  type HeldFileLock,
} from './file-lock.js';
import type { TrustStoreLogger } from './logger.js';

/** What {@link LockedJsonFileOptions.fromJson} makes of a file's JSON: a value, or why not. */
export type JsonFileCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Options of {@link LockedJsonFile}. */
export interface LockedJsonFileOptions<T> {
  /**
   * Turns the parsed JSON of the file into the value, or says why the file cannot be used ("its
   * "version" is 2"): such a file counts as corrupt. Never given text that is not JSON.
   */
  fromJson: (data: unknown) => JsonFileCheck<T>;
  /** The JSON to write for a value; it is written with two-space indents and a final newline. */
  toJson: (value: T) => unknown;
  /** What the file is, for messages and errors. Default `'trust file'`. */
  label?: string;
  /** Receives warnings (a corrupt file moved aside, loose permissions) and debug notes. */
  logger?: TrustStoreLogger | undefined;
  /** How long a change waits for another process's lock before it fails. Default 10 000 ms. */
  lockTimeoutMs?: number;
  /**
   * After how long without a refresh a lock counts as left behind by a dead process and is taken
   * over. At least 2 000; default 5 000 ms.
   */
  lockStaleMs?: number;
  /** Mode of the written file. Default `0o600`. */
  mode?: number;
  /** Mode of folders created for the file. Default `0o700`. */
  folderMode?: number;
  /** The clock, for the names of moved-aside files. */
  now?: () => Date;
  /**
   * Ends the warning about a corrupt file that was moved aside: what it means for the person.
   * Default `'the store starts empty.'`
   */
  afterMoveAside?: string;
  /**
   * Also warn (once) when the existing file can be read by other users: for a file with secrets.
   * Its next write gives it {@link LockedJsonFileOptions.mode} again either way.
   */
  warnIfReadableByOthers?: boolean;
  /**
   * Let {@link LockedJsonFile.read} and {@link LockedJsonFile.load} return the same value object
   * while the file is unchanged, instead of parsing it again: the caller must then never change
   * what they return (copy what you hand out). Default `false` (a fresh value every read).
   */
  reuseValue?: boolean;
}

/** What {@link LockedJsonFile.read} found. */
export type LockedJsonFileContent<T> =
  { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'corrupt'; reason: string };

/** What the function given to {@link LockedJsonFile.update} returns. */
export interface LockedJsonFileChange<T, R> {
  /** The new value to write; absent (or `undefined`) writes nothing. */
  write?: T | undefined;
  /** What `update` returns. */
  result: R;
}

/** What tells one version of a file from another without reading it. */
function fileId(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * The file's identity now, or `undefined` when it is gone (the full read then says so). Errors
 * other than a missing file are thrown: the caller reports the file as unreadable.
 */
function statNow(file: string): BigIntStats | undefined {
  return statSync(file, { bigint: true, throwIfNoEntry: false });
}

/** What the last read found when the file was missing (no identity matches it). */
const MISSING = Object.freeze({ id: 'missing', text: '' });

/** How long a file must be unchanged before its bytes are remembered between reads. */
const SETTLED_MS = 2_000;

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * A JSON file owned by one store and changed only under a cross-process lock: the trust file,
 * the auth file, any small file two processes may change at once.
 *
 * - Reads take no lock: the file is only ever replaced by an atomic rename, so a reader sees the
 *   old or the new file, never half of one.
 * - {@link LockedJsonFile.update} is a read-modify-write under {@link withFileLock}, so two
 *   processes never lose each other's changes. Changes from one instance run one after the
 *   other. The write goes to a temporary file that is flushed and renamed over the old one,
 *   with mode 0600 (by default) in a folder created with mode 0700.
 * - A file that is not JSON, or that `fromJson` refuses, is moved aside to
 *   `<file>.corrupt-<UTC time>` (never over an earlier one) with a warning, under the lock, and
 *   counts as missing: never silently overwritten, never a crash.
 *
 * Errors are this package's, with `label` in their messages: a {@link LockedFileError} (codes
 * `TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED`, `TRUST_LOCK_COMPROMISED`, `TRUST_FILE_UNREADABLE`, `TRUST_WRITE_FAILED`,
 * `TRUST_MOVE_ASIDE_FAILED`) for the file and its lock, a {@link TrustStoreError} `TRUST_INVALID_OPTION`
 * for an unusable option.
 *
 * @example
 * ```ts
 * const notes = new LockedJsonFile<string[]>(path.join(home, 'notes.json'), {
 *   label: 'notes file',
 *   fromJson: (data) =>
 *     Array.isArray(data) && data.every((n) => typeof n === 'string')
 *       ? { ok: true, value: data }
 *       : { ok: false, reason: 'it is not a list of strings' },
 *   toJson: (value) => value,
 * });
 * await notes.update((current = []) => ({ write: [...current, 'hello'], result: undefined }));
 * await notes.load(); // → ['hello']
 * ```
 */
export class LockedJsonFile<T> {
  /** The file, made absolute. */
  readonly file: string;
  /** The lock folder, `<file>.lock`. */
  readonly lockFile: string;
  /** What the file is called in messages. */
  readonly label: string;

  readonly #options: LockedJsonFileOptions<T>;
  readonly #lockTimeoutMs: number;
  readonly #lockStaleMs: number;
  readonly #mode: number;
  readonly #folderMode: number;
  // Changes from this instance run one after the other instead of polling each other's lock.
  #queue: Promise<unknown> = Promise.resolve();
  #folderChecked = false;
  #modeChecked = false;
  /** What the last read found: the file's identity and its text. */
  #seen: { readonly id: string; readonly text: string; value?: T } | undefined;

  /**
   * @param file - path of the file; made absolute here. It need not exist.
   * @param options - how to read and write its JSON, label, logger, lock times, modes, clock
   * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` when `file` is empty or an option is unusable
   */
  constructor(file: string, options: LockedJsonFileOptions<T>) {
    const label = options?.label ?? DEFAULT_LABEL;
    if (typeof file !== 'string' || file.length === 0 || file.includes('\0')) {
      throw invalidOption(
        `the ${label} path must be a non-empty string, got ${typeof file === 'string' ? quote(file) : kindOf(file)}`,
      );
    }
    if (typeof options?.fromJson !== 'function' || typeof options.toJson !== 'function') {
      throw invalidOption('options.fromJson and options.toJson must be functions');
    }
    this.file = path.resolve(file);
    this.lockFile = `${this.file}.lock`;
    this.label = label;
    // A copy: changing the options object later changes nothing here.
    this.#options = { ...options };
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
    this.#mode = checkMode('mode', options.mode ?? FILE_MODE);
    this.#folderMode = checkMode('folderMode', options.folderMode ?? FOLDER_MODE);
    if (options.now != null && typeof options.now !== 'function') {
      throw invalidOption('options.now must be a function');
    }
  }

  /**
   * The current time from the clock of the options (`new Date()` without one), as used for the
   * names of moved-aside files; stores built on this file can use it for their own timestamps.
   * @returns a valid `Date`
   * @throws {@link TrustStoreError} `TRUST_INVALID_OPTION` when the clock returns something else
   */
  now(): Date {
    const clock = this.#options.now;
    const date: unknown = clock ? clock() : new Date();
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      throw invalidOption('options.now must return a valid Date');
    }
    return date;
  }

  /**
   * Reads the file as it is, without the lock, and moves nothing.
   * @returns `missing`, `ok` with the value, or `corrupt` with the reason
   * @throws {@link LockedFileError} `TRUST_FILE_UNREADABLE` when the file exists but cannot be read
   */
  async read(): Promise<LockedJsonFileContent<T>> {
    let text: string;
    let handle: fs.FileHandle | undefined;
    try {
      // The bytes read last time serve again while the file is the same file: same inode, size,
      // modification and change time (a write by this class, or by anyone using a rename, makes
      // a new inode; an edit in place changes the times). One stat instead of open, read and
      // close, on a path some hosts read on every call (a tool's grant): so another process's
      // change is seen by the very next read, with no cache time and no watcher event to wait
      // for. The stat is synchronous: one metadata syscall on a local file costs a few µs, where
      // the asynchronous one costs a thread-pool round trip and a promise on every call.
      // A file found missing is checked the same way: still missing, nothing to open.
      const seen = this.#seen;
      const now = seen === undefined ? undefined : statNow(this.file);
      if (seen === MISSING && now === undefined) return { kind: 'missing' };
      if (seen !== undefined && now !== undefined && fileId(now) === seen.id) {
        if (seen.value !== undefined) return { kind: 'ok', value: seen.value };
        text = seen.text;
      } else {
        handle = await fs.open(this.file, fsConstants.O_RDONLY);
        const info = await handle.stat({ bigint: true });
        if (this.#options.warnIfReadableByOthers === true && !this.#modeChecked) {
          this.#modeChecked = true;
          this.#warnIfLoose(Number(info.mode), 0o077, 'file');
        }
        text = await handle.readFile('utf8');
        // Only a file that has not changed for a while is remembered: file times are coarse (a
        // few ms), so a second write within the same tick could keep the same identity. A file
        // changed within SETTLED_MS is read in full every time.
        const age = Date.now() - Number(info.mtimeNs / 1_000_000n);
        this.#seen = age >= SETTLED_MS ? { id: fileId(info), text } : undefined;
      }
    } catch (error) {
      this.#seen = undefined;
      if (errnoCode(error) === 'ENOENT') {
        this.#seen = MISSING;
        return { kind: 'missing' };
      }
      throw fileUnreadable({ file: this.file, path: this.file, cause: error, label: this.label });
    } finally {
      await handle?.close().catch(() => undefined);
    }
    let data: unknown;
    try {
      // An editor may have added a byte order mark; it is not part of the JSON.
      data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      return {
        kind: 'corrupt',
        reason: text.trim() === '' ? 'it is empty' : 'it is not valid JSON',
      };
    }
    const checked = this.#options.fromJson(data);
    if (checked.ok && this.#options.reuseValue === true && this.#seen?.text === text) {
      this.#seen.value = checked.value;
    }
    return checked.ok
      ? { kind: 'ok', value: checked.value }
      : { kind: 'corrupt', reason: checked.reason };
  }

  /**
   * Reads the value. Takes the lock only when the file is corrupt, to move it aside without
   * racing a writer.
   * @returns the value, or `undefined` when the file is missing or was moved aside
   * @throws {@link LockedFileError} `TRUST_FILE_UNREADABLE` when the file exists but cannot be read
   * @throws {@link LockedFileError} `TRUST_MOVE_ASIDE_FAILED` when a corrupt file cannot be moved aside
   * @throws {@link LockedFileError} `TRUST_LOCK_TIMEOUT` only when the file is corrupt and another process holds the
   *   lock for too long
   */
  async load(): Promise<T | undefined> {
    const first = await this.read();
    if (first.kind === 'missing') return undefined;
    if (first.kind === 'ok') return first.value;
    return this.#withLock(() => this.#readLocked());
  }

  /**
   * Reads, changes and writes the file while holding the cross-process lock, so no other
   * process's change can slip in between. The folder is created first (mode 0700) when missing;
   * a folder others can write to gets a warning.
   * @param change - gets the current value (`undefined` when the file is missing or was moved
   *   aside) and returns what to write (if anything) and what `update` returns. The lock is
   *   held while it runs, so it should be quick. If it throws, nothing is written and the error
   *   comes out of `update` unchanged.
   * @returns the `result` of `change`
   * @throws {@link LockedFileError} `TRUST_LOCK_TIMEOUT`, `TRUST_LOCK_FAILED` when the lock cannot be taken
   * @throws {@link LockedFileError} `TRUST_LOCK_COMPROMISED` when the lock was lost before the write
   * @throws {@link LockedFileError} `TRUST_WRITE_FAILED` when the folder or the file cannot be written
   * @throws as {@link LockedJsonFile.load} does, and whatever `change` throws
   */
  update<R>(
    change: (
      current: T | undefined,
    ) => LockedJsonFileChange<T, R> | Promise<LockedJsonFileChange<T, R>>,
  ): Promise<R> {
    if (typeof change !== 'function') {
      return Promise.reject(invalidOption(`update needs a function, got ${kindOf(change)}`));
    }
    const run = this.#queue.then(() => this.#updateNow(change));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #updateNow<R>(
    change: (
      current: T | undefined,
    ) => LockedJsonFileChange<T, R> | Promise<LockedJsonFileChange<T, R>>,
  ): Promise<R> {
    await this.#ensureFolder();
    return this.#withLock(async (lock) => {
      const { write, result } = await change(await this.#readLocked());
      if (write !== undefined) {
        lock.assertHeld();
        await this.#write(write);
      }
      return result;
    });
  }

  #withLock<R>(action: (lock: HeldFileLock) => Promise<R>): Promise<R> {
    return withFileLock(
      this.file,
      {
        timeoutMs: this.#lockTimeoutMs,
        staleMs: this.#lockStaleMs,
        logger: this.#options.logger,
        label: this.label,
      },
      action,
    );
  }

  // Call only while holding the lock.
  async #readLocked(): Promise<T | undefined> {
    const content = await this.read();
    if (content.kind === 'ok') return content.value;
    if (content.kind === 'corrupt') await this.#moveAside(content.reason);
    return undefined;
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
      throw moveAsideFailed({ file: this.file, path: target, cause: error, label: this.label });
    }
    log(
      this.#options.logger,
      'warn',
      `the ${this.label} ${quote(this.file)} could not be used (${reason}). It was moved to ` +
        `${quote(target)} and ${this.#options.afterMoveAside ?? 'the store starts empty.'}`,
    );
  }

  async #ensureFolder(): Promise<void> {
    const dir = path.dirname(this.file);
    let created: string | undefined;
    try {
      created = await fs.mkdir(dir, { recursive: true, mode: this.#folderMode });
    } catch (error) {
      throw writeFailed(
        { file: this.file, path: dir, cause: error, label: this.label },
        'create the folder',
      );
    }
    if (this.#folderChecked) return;
    this.#folderChecked = true;
    // A folder we did not create is the person's choice and is not chmod-ed, but one that
    // others can write to lets them replace the file, so say so.
    if (created !== undefined) return;
    try {
      this.#warnIfLoose((await fs.stat(dir)).mode, 0o022, 'folder');
    } catch {
      // mkdir just succeeded; a failing stat changes nothing about the write.
    }
  }

  // Windows has no such mode bits, so nothing is said there.
  #warnIfLoose(mode: number, bits: number, what: 'file' | 'folder'): void {
    if (process.platform === 'win32' || (mode & bits) === 0) return;
    const shown = (mode & 0o777).toString(8).padStart(3, '0');
    const message =
      what === 'file'
        ? `the ${this.label} ${quote(this.file)} can be read by other users (mode ${shown}): ` +
          `run chmod ${octal(this.#mode)} on it; its next change writes it with mode ` +
          octal(this.#mode)
        : `the folder ${quote(path.dirname(this.file))} of the ${this.label} can be written by ` +
          `other users (mode ${shown}), who could replace the ${this.label}: run chmod ` +
          `${octal(this.#folderMode)} on it`;
    log(this.#options.logger, 'warn', message);
  }

  async #write(value: T): Promise<void> {
    const text = `${JSON.stringify(this.#options.toJson(value), null, 2)}\n`;
    // Loaded with the first write: a process that only reads the file never needs it.
    const { default: writeFileAtomic } = await import('write-file-atomic');
    try {
      await writeFileAtomic(this.file, text, { mode: this.#mode, fsync: true });
    } catch (error) {
      throw writeFailed(
        { file: this.file, path: this.file, cause: error, label: this.label },
        `write the ${this.label}`,
      );
    }
    await syncFolder(path.dirname(this.file));
  }
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}

function checkMode(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0o777) {
    throw invalidOption(`options.${name} must be a file mode such as 0o600`);
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
