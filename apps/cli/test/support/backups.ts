// The backups garuda-mcp leaves beside a file it rewrites.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** The files beside `file` whose names say they are its backups. */
export async function backupsOf(file: string): Promise<string[]> {
  const names = await readdir(path.dirname(file));
  return names
    .filter((name) => name.startsWith(`${path.basename(file)}.garuda-backup-`))
    .map((name) => path.join(path.dirname(file), name));
}
