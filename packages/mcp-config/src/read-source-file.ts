import { ImportNoteCode, type ImportNote } from './import-types.js';
import { readCappedFile } from './read-capped-file.js';

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
  const read = await readCappedFile(file, max);
  switch (read.kind) {
    case 'missing':
      return read;
    case 'text':
      return { kind: 'text', text: read.text };
    case 'unreadable':
      // A path through a file (`ENOTDIR`) is a file that is not there, as far as importing goes.
      if (read.code === 'ENOTDIR') return { kind: 'missing' };
      return unreadable(read.code, 'check that it is a file you may read');
    case 'not-a-file':
      return unreadable(undefined, read.folder ? 'it is a folder' : 'it is not a file');
    case 'too-large':
      return {
        kind: 'problem',
        problem: {
          code: ImportNoteCode.FILE_TOO_LARGE,
          message:
            `is larger than ${max / (1024 * 1024)} MiB, more than such a file should be: ` +
            'nothing was imported from it',
        },
      };
    case 'not-text':
      return {
        kind: 'problem',
        problem: {
          code: ImportNoteCode.FILE_NOT_TEXT,
          message: 'is not UTF-8 text: nothing was imported from it',
        },
      };
  }
}
