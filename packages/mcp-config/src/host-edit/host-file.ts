// Reading, checking and writing a host's own config file for the gateway's entry: the file is
// refused whole (never half edited) when it is not a regular UTF-8 file under import's cap, or
// does not parse as the host parses it.
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isRecord } from '@garuda/internal';
import { ConfigErrorCode, HostFileError, type HostFileErrorReason } from '../errors.js';
import type { HostDescriptor } from '../hosts/host.js';
import { ImportNoteCode, type ImportClient } from '../import-types.js';
import { parseClientFile } from '../parse-client-file.js';
import { MAX_IMPORT_FILE_BYTES } from '../read-source-file.js';

/** The name of the gateway's entry in a host's file. */
export const ENTRY_NAME = 'garuda';

/** A host's file as it was read: its bytes and text (undefined when there is none). */
export interface HostFileRead {
  readonly bytes: Buffer | undefined;
  readonly text: string | undefined;
}

/** A `CONFIG_HOST_FILE_UNUSABLE` error: nothing was written. */
export function unusable(
  file: string,
  reason: HostFileErrorReason,
  details: ConstructorParameters<typeof HostFileError>[3] = {},
  cause?: unknown,
): HostFileError {
  return new HostFileError(ConfigErrorCode.HOST_FILE_UNUSABLE, file, reason, details, cause);
}

/**
 * The host's file: its bytes (undefined when there is none) and their text. A file over import's
 * cap (16 MiB) or not UTF-8 is refused before anything is parsed: editing one would mean
 * rewriting bytes the host wrote.
 */
export async function readHostFile(file: string): Promise<HostFileRead> {
  const info = await stat(file).catch(() => undefined);
  // A FIFO or device at the path would make the read below wait for ever.
  if (info !== undefined && !info.isFile()) throw unusable(file, 'not-a-file');
  if ((info?.size ?? 0) > MAX_IMPORT_FILE_BYTES) throw unusable(file, 'too-large');
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw unusable(file, 'unreadable', {}, error);
  });
  if (bytes === undefined) return { bytes, text: undefined };
  if (bytes.length > MAX_IMPORT_FILE_BYTES) throw unusable(file, 'too-large');
  try {
    return { bytes, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch (error) {
    throw unusable(file, 'not-utf8', {}, error);
  }
}

/**
 * The data of the host's file (an empty object for a new or empty TOML one), parsed as import
 * parses it (depth checked before any recursive parser runs), so a file the host could not read
 * either is never appended to.
 */
export function hostData(
  file: string,
  host: HostDescriptor,
  text: string | undefined,
): Record<string, unknown> {
  // An empty TOML file is an empty document; an empty JSON file is an error.
  if (text === undefined || (host.format === 'toml' && text.trim() === '')) return {};
  const parsed = parseClientFile(host.id as ImportClient, text);
  if (!parsed.ok) {
    const problem = parsed.problems[0] ?? {
      code: ImportNoteCode.INVALID_SYNTAX,
      message: 'cannot be parsed',
    };
    throw unusable(file, 'unparsable', { problem });
  }
  if (!isRecord(parsed.value)) throw unusable(file, 'not-an-object');
  return parsed.value;
}

/** The host's server list, parsed: `text`'s list, or undefined when it does not parse as one. */
export function serverList(
  host: HostDescriptor,
  text: string,
): Record<string, unknown> | undefined {
  const parsed = parseClientFile(host.id as ImportClient, text);
  if (!parsed.ok || !isRecord(parsed.value)) return undefined;
  const list = parsed.value[host.serversKey];
  return isRecord(list) ? list : undefined;
}

/** Whether `text` parses (as the host's format) with `entry` under its list's `garuda`. */
export function holdsEntry(
  host: HostDescriptor,
  text: string,
  entry: Record<string, unknown>,
): boolean {
  const list = serverList(host, text);
  return list !== undefined && JSON.stringify(list[ENTRY_NAME]) === JSON.stringify(entry);
}

/** `text` (a TOML file) with `table` appended after one blank line. */
export function withTable(text: string, table: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const gap = text === '' || text.endsWith(eol + eol) ? '' : text.endsWith(eol) ? eol : eol + eol;
  return `${text}${gap}${table.replaceAll('\n', eol)}`;
}

/** A TOML value of an entry: strings as basic strings (quotes, backslashes, controls escaped). */
function tomlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(String(value));
}

/** The TOML table of the gateway's entry: `[<key>.garuda]` and one line per field. */
export function tomlTable(key: string, entry: Record<string, unknown>): string {
  const fields = Object.entries(entry);
  return `[${key}.${ENTRY_NAME}]\n${fields.map(([k, v]) => `${k} = ${tomlValue(v)}\n`).join('')}`;
}

/**
 * Replaces `file` with `text` whole (write-file-atomic: a temporary file beside it, flushed, then
 * renamed), with the old file's mode or 0600 for a new one, so the host never reads half a file.
 *
 * @throws {@link HostFileError} `CONFIG_WRITE_FAILED` (`write-failed`, the error as `cause`).
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  // Loaded with the first write, not with the module (reading needs none of it).
  const { default: writeFileAtomic } = await import('write-file-atomic');
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const mode = await stat(file).then(
      (s) => s.mode & 0o777,
      () => 0o600,
    );
    await writeFileAtomic(file, text, { mode, fsync: true });
  } catch (error) {
    throw new HostFileError(ConfigErrorCode.WRITE_FAILED, file, 'write-failed', {}, error);
  }
}
