import { errnoCode } from '@garuda/internal';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ImportNoteCode, type ImportNote } from './import-types.js';

/**
 * The largest file of another client that is read, in bytes (16 MiB). Claude Code keeps its
 * history in `~/.claude.json`, which grows to several megabytes; anything larger is reported
 * as `FILE_TOO_LARGE`.
 */
export const MAX_IMPORT_FILE_BYTES = 16 * 1024 * 1024;

/** What reading another client's file gave. @internal */
export type SourceRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'problem'; readonly problem: ImportNote }
  | { readonly kind: 'text'; readonly text: string };

// O_NONBLOCK: a FIFO planted at the path must not make the read wait for a writer; fstat then
// refuses anything that is not a regular file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function unreadable(code: string | undefined, what: string): SourceRead {
  return {
    kind: 'problem',
    problem: {
      code: ImportNoteCode.FILE_UNREADABLE,
      message: `cannot be read${code === undefined ? '' : ` (${code})`}: ${what}; nothing was imported from it`,
    },
  };
}

/**
 * Reads one file with plain reads from one descriptor: at most `max + 1` bytes (so a growing
 * file cannot get past the cap), UTF-8, a byte order mark removed. Never throws. @internal
 */
export async function readSourceFile(
  file: string,
  max: number = MAX_IMPORT_FILE_BYTES,
): Promise<SourceRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return unreadable(code, 'check that it is a file you may read');
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      return unreadable(undefined, stat.isDirectory() ? 'it is a folder' : 'it is not a file');
    }
    // Sized by the file, not the cap, so a small file costs a small buffer.
    const chunkSize = Math.min(max + 1, Math.max(stat.size + 1, 64 * 1024));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= max) {
      const chunk = Buffer.alloc(Math.min(chunkSize, max + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > max) {
      return {
        kind: 'problem',
        problem: {
          code: ImportNoteCode.FILE_TOO_LARGE,
          message:
            `is larger than ${max / (1024 * 1024)} MiB, more than such a file should be: ` +
            'nothing was imported from it',
        },
      };
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return {
        kind: 'problem',
        problem: {
          code: ImportNoteCode.FILE_NOT_TEXT,
          message: 'is not UTF-8 text: nothing was imported from it',
        },
      };
    }
    return { kind: 'text', text };
  } catch (error) {
    return unreadable(errnoCode(error), 'check that it is a file you may read');
  } finally {
    await handle.close().catch(() => undefined);
  }
}
