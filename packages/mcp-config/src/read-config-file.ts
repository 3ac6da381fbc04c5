import { errnoCode } from '@garuda/internal';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { ConfigProblemCode, type ConfigProblem } from './config-problem.js';
import { MAX_CONFIG_BYTES } from './limits.js';

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

// O_NONBLOCK: opening a FIFO (or a device) planted at the path must not wait for a writer; the
// fstat below then refuses anything that is not a regular file. It has no effect on files.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

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
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { kind: 'missing' };
    return {
      kind: 'problem',
      problem: unreadable(file, code, 'check that it is a file you may read'),
      cause: error,
    };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      const what = stat.isDirectory() ? 'it is a folder' : 'it is not a regular file';
      return {
        kind: 'problem',
        problem: unreadable(file, undefined, `${what}; put a JSON file at this path or remove it`),
      };
    }
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_CONFIG_BYTES) {
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
    }
    let text: string;
    try {
      text = DECODER.decode(buffer.subarray(0, length));
    } catch {
      return {
        kind: 'problem',
        problem: {
          code: ConfigProblemCode.FILE_NOT_TEXT,
          file,
          message: 'is not UTF-8 text: save it as UTF-8 JSON; no server from this file was loaded',
        },
      };
    }
    const bom = length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    const identity = stat.ino === 0 ? undefined : `${stat.dev}:${stat.ino}`;
    return { kind: 'text', text, bom, identity };
  } catch (error) {
    const code = errnoCode(error);
    return {
      kind: 'problem',
      problem: unreadable(file, code, 'check that it is a file you may read'),
      cause: error,
    };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
