import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

/** A file's bytes, modification time and mode, to prove that a change left it alone. */
export async function fingerprint(file: string): Promise<string> {
  const s = await stat(file);
  const sha256 = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  return `${sha256}:${s.mtimeMs}:${s.mode}`;
}
