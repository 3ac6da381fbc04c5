// The audit log: `<home>/audit.jsonl`, one JSON line per consent, sign-in, approval, call and
// pin change, each carrying the SHA-256 of the line before it, so an edited, removed, inserted
// or reordered line breaks the chain where it is. Only names, small words, numbers and hashes
// are written: no argument, result, token or secret (a host may opt in to argument and result
// text). Written by hand: no maintained library keeps a hash-chained JSON-lines file.
import { constants, createReadStream, type BigIntStats } from 'node:fs';
import { lstat, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanLine, capText, cleanText } from '@garuda/mcp-sanitize';
import { LockedFileError, TrustStoreErrorCode, withFileLock } from '@garuda/mcp-trust';
import { sha256Text } from './hash.js';

/** The `prev` of the first line. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** The most characters of argument or result text a line holds when the host opts in. */
export const MAX_AUDIT_TEXT_CHARS = 10_000;

/** One thing the log records (what `append` takes). */
export type AuditEvent =
  | {
      readonly kind: 'consent';
      readonly server: string;
      /** `once`, `remember`, or `deny` (also any other answer). */
      readonly decision: 'once' | 'remember' | 'deny';
      /** `server`: the definition; `tools`: its changed tools. */
      readonly about: 'server' | 'tools';
    }
  | {
      readonly kind: 'approval';
      readonly server: string;
      readonly tool: string;
      /**
       * `approved` (asked, yes), `always` (asked, yes and remembered), `declined` (asked, no),
       * `denied` (a deny rule refused it unasked), `auto` (a rule, the mode or a grant ran it).
       */
      readonly decision: 'approved' | 'always' | 'declined' | 'denied' | 'auto';
      readonly why: string;
    }
  | {
      readonly kind: 'call';
      readonly server: string;
      readonly tool: string;
      readonly outcome: 'ok' | 'tool-error' | 'failed' | 'declined' | 'cancelled';
      /** SHA-256 of the arguments as canonical JSON. */
      readonly argsSha256: string;
      /** SHA-256 of the result text the model read; absent when there was none. */
      readonly resultSha256?: string;
      readonly durationMs: number;
      readonly argsText?: string;
      readonly resultText?: string;
    }
  | {
      readonly kind: 'sign-in';
      readonly server: string;
      /** The answer to the sign-in question. */
      readonly decision: 'allowed' | 'declined';
    }
  | { readonly kind: 'sign-out'; readonly server: string; readonly outcome: 'ok' | 'failed' }
  | {
      readonly kind: 'pin';
      readonly server: string;
      /** `first`: its tools were pinned for the first time; `changed`: they differ from the pin. */
      readonly change: 'first' | 'changed';
      /** `pinned`: the new list is in use (and pinned); `held`: its changes wait, not in use. */
      readonly decision: 'pinned' | 'held';
      /** How many tools (and prompts) were added, removed and changed against the old pin. */
      readonly added: number;
      readonly removed: number;
      readonly changed: number;
      /** SHA-256 of the new list as pinned (`hashTools` of `@garuda/mcp-trust`). */
      readonly toolsSha256: string;
    };

/** One line of the log as read back. */
export type AuditRecord = AuditEvent & {
  readonly seq: number;
  /** ISO 8601, UTC. */
  readonly at: string;
  readonly prev: string;
};

/** What `verifyAuditLog` found. */
export interface AuditVerdict {
  readonly ok: boolean;
  /** How many lines were read. */
  readonly lines: number;
  /**
   * The first line that breaks the chain (1-based) and why. `cut` when that line is one a crash
   * leaves (a write that did not finish, past the lines the head vouches for): the lines before
   * it are intact, nothing was edited.
   */
  readonly firstBad?: { readonly line: number; readonly reason: string; readonly cut?: true };
}

/** Each kind's fields beyond `seq`, `at`, `prev`, `kind` and `server`, with their types. */
const FIELDS: Readonly<Record<string, Readonly<Record<string, 'string' | 'number'>>>> = {
  consent: { decision: 'string', about: 'string' },
  approval: { tool: 'string', decision: 'string', why: 'string' },
  call: { tool: 'string', outcome: 'string', argsSha256: 'string', durationMs: 'number' },
  'sign-in': { decision: 'string' },
  'sign-out': { outcome: 'string' },
  pin: {
    change: 'string',
    decision: 'string',
    added: 'number',
    removed: 'number',
    changed: 'number',
    toolsSha256: 'string',
  },
};

const KINDS = new Set(Object.keys(FIELDS));

/** Whether a parsed line has the shape of a record of its kind (a reader may rely on it). */
function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const fields = typeof record.kind === 'string' ? FIELDS[record.kind] : undefined;
  if (fields === undefined) return false;
  if (typeof record.seq !== 'number' || typeof record.at !== 'string') return false;
  if (typeof record.prev !== 'string' || typeof record.server !== 'string') return false;
  return Object.entries(fields).every(([key, type]) => typeof record[key] === type);
}

/** Where the log's head (the number and hash of its last line) is kept. */
function headFile(file: string): string {
  return `${file}.head`;
}

/** The last line of a file (without its newline) and whether the file ends in one. */
async function lastLine(
  file: string,
): Promise<{ line: string; endsWithNewline: boolean } | undefined> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return undefined;
    // Read backwards in chunks until a line break before the last line.
    let end = size;
    let tail = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - 64 * 1024);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      tail = Buffer.concat([chunk, tail]);
      end = start;
      const endsWithNewline = tail[tail.length - 1] === 0x0a;
      const body = endsWithNewline ? tail.subarray(0, -1) : tail;
      const at = body.lastIndexOf(0x0a);
      if (at >= 0) return { line: body.subarray(at + 1).toString('utf8'), endsWithNewline };
    }
    const endsWithNewline = tail[tail.length - 1] === 0x0a;
    const body = endsWithNewline ? tail.subarray(0, -1) : tail;
    return { line: body.toString('utf8'), endsWithNewline };
  } finally {
    await handle.close();
  }
}

function clip(text: string): string {
  return capText(cleanText(text), MAX_AUDIT_TEXT_CHARS);
}

/** The fields of an event as written: names cleaned to one line, text only when opted in. */
function fieldsOf(event: AuditEvent, includeText: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'argsText' || key === 'resultText') {
      if (includeText && typeof value === 'string') out[key] = clip(value);
      continue;
    }
    out[key] = typeof value === 'string' ? cleanLine(value).slice(0, 200) : value;
  }
  return out;
}

/** The most events one write of the log takes. */
const MAX_BATCH = 256;

interface Waiting {
  readonly event: AuditEvent;
  readonly resolve: (record: AuditRecord) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Where audit events go: an {@link AuditLog}, or a writer of the host's own (a collector, a
 * list in a test). `@garuda/mcp-manager` takes one as `auditLog: { sink }`.
 */
export interface AuditSink {
  /** Whether events should carry argument and result text: when not, a caller need not make it. */
  readonly includesText: boolean;
  /**
   * Takes one event.
   *
   * @returns A promise that settles once the event is kept (rejects when it could not be).
   */
  append(event: AuditEvent): Promise<unknown>;
  /** Keeps what waits now, without waiting for a batch (e.g. before the process ends). */
  flush(): Promise<void>;
}

/**
 * An append-only, hash-chained audit log on one file. Appends are written in batches: one lock,
 * one read of the last line, one write and one `fsync` for every event that waits, so a busy
 * session pays the disk once per batch, not per event.
 */
export class AuditLog implements AuditSink {
  readonly #file: string;
  readonly #includeText: boolean;
  readonly #batchMs: number;
  readonly #waiting: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  /** A flush() waits: every batch goes at once. */
  #flushing = false;
  /** The log's folder was made (or found) by this instance: not made again for every batch. */
  #folderMade = false;
  /**
   * Where this instance left the log: the file's identity after its last write, and the number,
   * hash and time of its last line. While the file is still exactly that file, the next batch
   * goes on from here instead of reading the last line back.
   */
  #tail: Tail | undefined;

  /**
   * @param file - The log (Garuda: `<home>/audit.jsonl`); its folder is made (0700) if missing.
   * @param options - `includeText`: also keep argument and result text (cleaned, capped).
   *   `batchMs`: how long an event may wait for others to be written with it (default 0: the
   *   next write takes whatever waits by then).
   */
  constructor(
    file: string,
    options: { readonly includeText?: boolean; readonly batchMs?: number } = {},
  ) {
    this.#file = path.resolve(file);
    this.#includeText = options.includeText === true;
    this.#batchMs = Math.max(0, options.batchMs ?? 0);
  }

  /** The log's path. */
  get file(): string {
    return this.#file;
  }

  /** Whether argument and result text is kept (the host opted in). */
  get includesText(): boolean {
    return this.#includeText;
  }

  /**
   * Appends one event, chained to the last line, under the file's lock (other processes write
   * the same log). Appends of this process keep their order.
   *
   * @returns The record as written (once it is on disk).
   */
  append(event: AuditEvent): Promise<AuditRecord> {
    return new Promise<AuditRecord>((resolve, reject) => {
      this.#waiting.push({ event, resolve, reject });
      this.#schedule(this.#waiting.length >= MAX_BATCH ? 0 : this.#batchMs);
    });
  }

  /**
   * Writes what waits now, without waiting for the batch time (e.g. before the process ends).
   * With nothing waiting it writes nothing: not even the log's folder is made.
   */
  async flush(): Promise<void> {
    if (this.#waiting.length === 0 && this.#writing === undefined) return;
    this.#flushing = true;
    try {
      this.#schedule(0);
      while (this.#writing !== undefined) await this.#writing;
    } finally {
      this.#flushing = false;
    }
  }

  #schedule(delay: number): void {
    if (this.#writing !== undefined || this.#waiting.length === 0) return;
    if (delay > 0 && this.#timer !== undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (delay > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#schedule(0);
      }, delay);
      return;
    }
    this.#writing = this.#drain();
  }

  async #drain(): Promise<void> {
    // A microtask later: the events of the same turn join this write.
    await Promise.resolve();
    const batch = this.#waiting.splice(0, MAX_BATCH);
    // An empty batch would append a bare line break, which the chain cannot vouch for.
    if (batch.length === 0) {
      this.#writing = undefined;
      return;
    }
    try {
      const records = await this.#write(batch.map((waiting) => waiting.event));
      batch.forEach((waiting, index) => waiting.resolve(records[index] as AuditRecord));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
    this.#writing = undefined;
    // What came meanwhile waits for its own batch time (or goes now when a batch is full, or
    // when flush() asked for it).
    if (this.#waiting.length > 0) {
      this.#schedule(this.#flushing || this.#waiting.length >= MAX_BATCH ? 0 : this.#batchMs);
    }
  }

  async #write(events: readonly AuditEvent[]): Promise<AuditRecord[]> {
    const folder = path.dirname(this.#file);
    if (!this.#folderMade) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      this.#folderMade = true;
    }
    try {
      return await this.#writeLocked(events);
    } catch (error) {
      // The folder was made once; if it is gone since (removed by hand), it is made again.
      if ((await lstat(folder).catch(() => undefined)) !== undefined) throw error;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      return this.#writeLocked(events);
    }
  }

  #writeLocked(events: readonly AuditEvent[]): Promise<AuditRecord[]> {
    return withFileLock(this.#file, { label: 'audit log', timeoutMs: 10_000 }, async (lock) => {
      const info = await lstat(this.#file, { bigint: true }).catch(() => undefined);
      if (info !== undefined && !info.isFile()) {
        throw new Error(`the audit log ${this.#file} is not a file (a link or a folder)`);
      }
      // The chain goes on from the file's own last line, under the lock: another process may
      // have written since this one last did. When the file is still exactly as this instance
      // left it (same file, size and times), that line is the one remembered; else it is read.
      const tail = this.#tail;
      this.#tail = undefined;
      const same = info !== undefined && tail !== undefined && fileId(info) === tail.id;
      const last = same ? undefined : await lastLine(this.#file);
      let seq = same ? tail.seq + 1 : 1;
      let prev = same ? tail.sha256 : AUDIT_GENESIS;
      let lead = '';
      let at = new Date().toISOString();
      if (same && tail.at > at) at = tail.at;
      if (last !== undefined) {
        prev = sha256Text(last.line);
        try {
          const parsed = JSON.parse(last.line) as { seq?: unknown; at?: unknown };
          seq = typeof parsed.seq === 'number' ? parsed.seq + 1 : 1;
          // A clock set back (or another process's clock ahead) must not read as a reordered log.
          if (typeof parsed.at === 'string' && parsed.at > at) at = parsed.at;
        } catch {
          // A torn last line (a crash mid-write): the new line starts on its own line and chains
          // to the torn bytes, so the verification names exactly that line.
          seq = 0;
        }
        if (!last.endsWithNewline) lead = '\n';
      }
      const records: AuditRecord[] = [];
      const lines: string[] = [];
      for (const event of events) {
        const record = {
          seq,
          at,
          ...fieldsOf(event, this.#includeText),
          prev,
        } as unknown as AuditRecord;
        const line = JSON.stringify(record);
        records.push(record);
        lines.push(line);
        prev = sha256Text(line);
        seq += 1;
      }
      lock.assertHeld();
      const handle = await open(
        this.#file,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
        0o600,
      );
      let written: BigIntStats;
      try {
        // writeFile writes until every byte is out (one write() may take only part of a large
        // batch); O_APPEND and the lock keep another process's lines from landing in between.
        await handle.writeFile(`${lead}${lines.join('\n')}\n`, 'utf8');
        // The batch's one flush to disk (group commit): it runs beside the calls, which never
        // wait for it, and a crash loses at most this batch (verifyAuditLog calls it cut).
        await handle.sync();
        if (info !== undefined && (info.mode & 0o077n) !== 0n) await handle.chmod(0o600);
        written = await handle.stat({ bigint: true });
      } finally {
        await handle.close();
      }
      // The head: the number and hash of the last line, so a cut or edited end is found too
      // (a chain alone cannot tell its last line was changed or its last lines removed).
      const head = headFile(this.#file);
      const temporary = `${head}.${String(process.pid)}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ seq: seq - 1, sha256: prev })}\n`, {
        mode: 0o600,
      });
      await rename(temporary, head);
      this.#tail = { id: fileId(written), seq: seq - 1, sha256: prev, at };
      return records;
    });
  }
}

/** Where one writer left the log (see `AuditLog`). */
interface Tail {
  readonly id: string;
  readonly seq: number;
  readonly sha256: string;
  readonly at: string;
}

/** What tells one state of the log from another without reading it. */
function fileId(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Reads the log line by line and checks the chain: each line parses, `seq` counts up from 1,
 * `prev` is the SHA-256 of the line before (64 zeros for the first), `at` never goes back, and
 * the kind is known. A missing file is an empty, intact log. The writers' lock is taken for a
 * moment first, to read the length and head the last writer left: a log being written to
 * verifies as what it was then.
 */
export async function verifyAuditLog(file: string): Promise<AuditVerdict> {
  const state = await settledState(file);
  const read = readLines(file, state?.size);
  try {
    return await checkLines(read, state?.head);
  } finally {
    // An early verdict leaves the reading generator open: close its file.
    await read.return(undefined);
  }
}

/** The chain check of {@link verifyAuditLog}, line by line. */
async function checkLines(
  read: AsyncIterator<string>,
  head: AuditHead | undefined,
): Promise<AuditVerdict> {
  let lines = 0;
  let prev = AUDIT_GENESIS;
  let lastAt = '';
  const bad = (line: number, reason: string): AuditVerdict => ({
    ok: false,
    lines: line,
    firstBad: { line, reason: `line ${String(line)}: ${reason}` },
  });
  for (let next = await read.next(); next.done !== true; next = await read.next()) {
    const text = next.value;
    lines += 1;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Past the lines the head vouches for (or, with no head, the last line), a line that is
      // not whole is what a crash during a batch's write leaves: the log was cut there.
      const cut = head === undefined ? (await read.next()).done === true : lines > head.seq;
      return cut
        ? {
            ok: false,
            lines,
            firstBad: {
              line: lines,
              reason: `line ${String(lines)}: cut short: the write of the log's last batch did not finish (a crash while writing); the lines before it are intact`,
              cut: true,
            },
          }
        : bad(lines, 'it is not a JSON record (cut short or edited)');
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      return bad(lines, 'it is not a JSON record (edited)');
    }
    if (record.prev !== prev) {
      return bad(
        lines,
        lines === 1
          ? 'it is not the first line the log had (lines before it were removed)'
          : `its hash of line ${String(lines - 1)} does not match: a line was edited, removed, inserted or moved`,
      );
    }
    if (record.seq !== lines) {
      return bad(lines, `its number is ${String(record.seq)}, not ${String(lines)}`);
    }
    if (typeof record.at !== 'string' || record.at < lastAt) {
      return bad(lines, 'its time is earlier than the line before');
    }
    if (typeof record.kind !== 'string' || !KINDS.has(record.kind)) {
      return bad(lines, 'its kind is not one the log writes');
    }
    if (!isAuditRecord(record)) return bad(lines, 'a field of its kind is missing or wrong');
    lastAt = record.at;
    prev = sha256Text(text);
  }
  if (head !== undefined) {
    if (lines < head.seq) {
      return bad(
        lines + 1,
        `the log ends at line ${String(lines)}, but it had ${String(head.seq)} lines: lines at its end were removed`,
      );
    }
    if (lines === head.seq && prev !== head.sha256) {
      return bad(lines, 'it is not the last line the log wrote: the line was edited');
    }
  }
  return { ok: true, lines };
}

/**
 * The log's length and head as one writer left them, taken under the writers' lock (for a
 * moment: the lines are read after it is given back, and only up to that length, since the file
 * only grows). Without the lock, a verification running beside a writer could read a line half
 * written, or a head newer than the lines it read, and call an intact log broken.
 */
async function settledState(
  file: string,
): Promise<{ size: number; head: AuditHead | undefined } | undefined> {
  const read = async () => {
    // The head first: it never names more lines than the file held a moment later.
    const head = await readHead(file);
    const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    return info === undefined ? undefined : { size: info.size, head };
  };
  const info = await lstat(file).catch(() => undefined);
  // None yet, or not a file (readLines says so).
  if (info?.isFile() !== true) return undefined;
  try {
    return await withFileLock(file, { label: 'audit log', timeoutMs: 10_000 }, read);
  } catch (error) {
    // A folder this user may read but not write (a copy kept as evidence): no writer can be
    // beside this read, so it goes without the lock.
    if (LockedFileError.isInstance(error) && error.code === TrustStoreErrorCode.LOCK_FAILED)
      return read();
    throw error;
  }
}

/** What the head file holds: the number and hash of the log's last line. */
interface AuditHead {
  readonly seq: number;
  readonly sha256: string;
}

async function readHead(file: string): Promise<AuditHead | undefined> {
  try {
    const head = JSON.parse(await readFile(headFile(file), 'utf8')) as Record<string, unknown>;
    if (typeof head.seq === 'number' && typeof head.sha256 === 'string') {
      return { seq: head.seq, sha256: head.sha256 };
    }
  } catch {
    // No head (an older log, or none yet): the chain alone is checked.
  }
  return undefined;
}

/**
 * The records of the log, oldest first, from `since` on. Lines that do not parse or lack a field
 * of their kind are skipped (`verifyAuditLog` names them); strings are as written, so a reader
 * that shows them cleans them (the file may have been edited).
 */
export async function readAuditLog(
  file: string,
  options: { readonly since?: Date } = {},
): Promise<AuditRecord[]> {
  const since = options.since?.toISOString() ?? '';
  const records: AuditRecord[] = [];
  for await (const text of readLines(file)) {
    try {
      const record = JSON.parse(text) as unknown;
      if (isAuditRecord(record) && record.at >= since) records.push(record);
    } catch {
      // Shown by verifyAuditLog, not here.
    }
  }
  return records;
}

/** The lines of the log, up to `size` bytes when given (what a settled writer had left). */
async function* readLines(file: string, size?: number): AsyncGenerator<string> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined || size === 0) return;
  if (!info.isFile()) throw new Error(`the audit log ${file} is not a file (a link or a folder)`);
  // Loaded here: a process that only appends (a CLI command) never reads the log back.
  const { createInterface } = await import('node:readline');
  const input = createReadStream(file, size === undefined ? {} : { end: size - 1 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) yield line;
}
