import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { MAX_CONFIG_BYTES } from './limits.js';
import { readCappedFile } from './read-capped-file.js';

/** What reading a configuration file gave. @internal */
export type ReadResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'problem'; readonly problem: ConfigProblem; readonly cause?: unknown }
  | {
      readonly kind: 'text';
      readonly text: string;
      /** Whether the file started with a UTF-8 byte order mark (removed from `text`). */
      readonly bom: boolean;
      /** Device and inode, to recognise one file reached by two paths (when the OS has them). */
      readonly identity: string | undefined;
    };

function unreadable(file: string, code: string | undefined, what: string): ConfigProblem {
  return {
    code: ConfigProblemCode.FILE_UNREADABLE,
    file,
    message: `cannot be read${code === undefined ? '' : ` (${code})`}: ${what}; no server from this file was loaded`,
  };
}

/**
 * Reads a configuration file: at most `MAX_CONFIG_BYTES + 1` bytes from one open descriptor (so
 * a file that grows while it is read cannot get past the limit), UTF-8 with a BOM removed.
 * A missing file is `missing`; everything else that goes wrong is a `problem`. Never throws.
 * @internal
 */
export async function readConfigFile(file: string): Promise<ReadResult> {
  const read = await readCappedFile(file, MAX_CONFIG_BYTES);
  switch (read.kind) {
    case 'missing':
    case 'text':
      return read;
    case 'unreadable':
      return {
        kind: 'problem',
        problem: unreadable(file, read.code, 'check that it is a file you may read'),
        cause: read.cause,
      };
    case 'not-a-file': {
      const what = read.folder ? 'it is a folder' : 'it is not a regular file';
      return {
        kind: 'problem',
        problem: unreadable(file, undefined, `${what}; put a JSON file at this path or remove it`),
      };
    }
    case 'too-large':
      return {
        kind: 'problem',
        problem: {
          code: ConfigProblemCode.FILE_TOO_LARGE,
          file,
          message:
            'is larger than 1 MiB, more than any configuration needs: ' +
            'check that this is the right file; no server from this file was loaded',
        },
      };
    case 'not-text':
      return {
        kind: 'problem',
        problem: {
          code: ConfigProblemCode.FILE_NOT_TEXT,
          file,
          message: 'is not UTF-8 text: save it as UTF-8 JSON; no server from this file was loaded',
        },
      };
  }
}
