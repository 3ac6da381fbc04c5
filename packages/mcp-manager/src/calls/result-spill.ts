import { groupDigits } from '@garuda/internal';
// Large results: over a server's `maxResultChars`, the whole cleaned result goes to a file of
// ours under `<home>/spill/` (0700; files 0600, named by us alone), and the model reads the head,
// the size and the path inside the wrapper. The folder is pruned by age, count and size before
// each write. `<home>` is hidden from every sandboxed server, so no server can read a spill file
// or plant one.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, chmod, unlink } from 'node:fs/promises';
import path from 'node:path';
import { messageOf, oneLine } from '../common/text.js';

/** How long a spill file is kept (24 hours). */
export const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** The most spill files kept. */
export const SPILL_MAX_FILES = 100;
/** The most bytes all spill files take together (256 MiB). */
export const SPILL_MAX_BYTES = 256 * 1024 * 1024;

/** The names of our spill files: nothing else in the folder is ever removed. */
const SPILL_NAME = /^\d{8}T\d{6}-[a-z0-9_-]{1,40}-[a-z0-9_-]{1,40}-[0-9a-f]{8}\.txt$/;

/** Where and how much a spill may keep. @internal */
export interface SpillPlace {
  /** The spill folder, `<home>/spill`. */
  readonly dir: string;
  readonly maxAgeMs?: number;
  readonly maxFiles?: number;
  readonly maxBytes?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/** A name part of ours: `[a-z0-9_-]`, at most 40 characters, never empty. */
function namePart(text: string): string {
  const part = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .slice(0, 40);
  return part === '' ? 'x' : part;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').slice(0, 15);
}

/**
 * Makes the spill folder (0700) or checks it: a real folder of this user, not a link; a folder
 * others may read is closed to them. @internal
 */
async function spillFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a folder (a link or a file)`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** Removes old spill files, then the oldest, until `room` more bytes and one more file fit. */
async function prune(place: SpillPlace, now: number, room: number): Promise<void> {
  const maxAge = place.maxAgeMs ?? SPILL_MAX_AGE_MS;
  const maxFiles = place.maxFiles ?? SPILL_MAX_FILES;
  const maxBytes = place.maxBytes ?? SPILL_MAX_BYTES;
  const entries = await readdir(place.dir, { withFileTypes: true });
  const files: { file: string; mtime: number; size: number }[] = [];
  for (const entry of entries) {
    // readdir does not follow links: a link is never ours.
    if (!entry.isFile() || !SPILL_NAME.test(entry.name)) continue;
    const file = path.join(place.dir, entry.name);
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile() === true) files.push({ file, mtime: info.mtimeMs, size: info.size });
  }
  files.sort((a, b) => a.mtime - b.mtime);
  let total = files.reduce((sum, f) => sum + f.size, 0);
  let count = files.length;
  for (const f of files) {
    const old = now - f.mtime > maxAge;
    if (!old && count + 1 <= maxFiles && total + room <= maxBytes) break;
    await unlink(f.file).catch(() => {});
    count -= 1;
    total -= f.size;
  }
}

/**
 * Writes one result to a new spill file of ours (`<time>-<server>-<tool>-<random>.txt`, 0600,
 * never over an existing file or through a link). @internal
 *
 * @returns The file's path and size in bytes.
 */
export async function spillResult(
  text: string,
  names: { readonly server: string; readonly tool: string },
  place: SpillPlace,
): Promise<{ readonly file: string; readonly bytes: number }> {
  const now = (place.now ?? Date.now)();
  const data = Buffer.from(text, 'utf8');
  await spillFolder(place.dir);
  await prune(place, now, data.length);
  const name = `${stamp(now)}-${namePart(names.server)}-${namePart(names.tool)}-${randomBytes(4).toString('hex')}.txt`;
  const file = path.join(place.dir, name);
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  return { file, bytes: data.length };
}

/**
 * The first `max` characters of `text`, ending at a line break in its last fifth when there is
 * one, never inside a surrogate pair. @internal
 */
export function spillHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const lineEnd = text.lastIndexOf('\n', end - 1);
  if (lineEnd >= Math.floor(max * 0.8)) end = lineEnd;
  return text.slice(0, end);
}

/**
 * A formatted result whose body is longer than `maxChars`, made short: the whole body goes to a
 * spill file and the model reads the head and where the rest is, inside the same wrapper. When
 * the file cannot be written, the body is cut and the note says why. @internal
 *
 * @param text - The wrapped result (`<mcp_result …>\n…\n</mcp_result>`), formatted with a cap
 *   far above `maxChars`.
 * @param maxChars - The server's `maxResultChars`.
 */
export async function spillIfLarge(
  text: string,
  maxChars: number,
  names: { readonly server: string; readonly tool: string },
  place: SpillPlace,
): Promise<string> {
  const open = text.indexOf('\n');
  const close = text.lastIndexOf('\n');
  if (open < 0 || close <= open) return text;
  const body = text.slice(open + 1, close);
  if (body.length <= maxChars) return text;
  const head = spillHead(body, maxChars);
  const size = `${groupDigits(body.length)} characters`;
  let note: string;
  try {
    const spilled = await spillResult(body, names, place);
    note = `[The result is ${size}; the first ${groupDigits(head.length)} are above. The whole result is saved for the user in ${spilled.file} (no MCP server can read that folder): tell the user if they need the rest.]`;
  } catch (error) {
    note = `[The result is ${size}; the first ${groupDigits(head.length)} are above, the rest is cut (it could not be saved: ${oneLine(messageOf(error), 200)}).]`;
  }
  return `${text.slice(0, open + 1)}${head}\n${note}${text.slice(close)}`;
}
