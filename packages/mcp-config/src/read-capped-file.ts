import { errnoCode } from '@garuda/internal';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** What reading a file with {@link readCappedFile} gave, for the caller to word. @internal */
export type CappedRead =
  | { readonly kind: 'missing' }
  /** Opening, inspecting or reading it failed (`code`: the errno code, when there is one). */
  | { readonly kind: 'unreadable'; readonly code: string | undefined; readonly cause: unknown }
  | { readonly kind: 'not-a-file'; readonly folder: boolean }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'not-text' }
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

/**
 * Reads a file with plain reads from one open descriptor: at most `max + 1` bytes (so a file that
 * grows while it is read cannot get past the cap), UTF-8 with a byte order mark removed. A
 * missing file (`ENOENT`) is `missing`; anything else that goes wrong has a kind of its own.
 * Never throws.
 * @internal
 */
export async function readCappedFile(file: string, max: number): Promise<CappedRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', code, cause: error };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'not-a-file', folder: stat.isDirectory() };
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
    if (total > max) return { kind: 'too-large' };
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return { kind: 'not-text' };
    }
    const bom = total >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const identity = stat.ino === 0 ? undefined : `${stat.dev}:${stat.ino}`;
    return { kind: 'text', text, bom, identity };
  } catch (error) {
    return { kind: 'unreadable', code: errnoCode(error), cause: error };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
