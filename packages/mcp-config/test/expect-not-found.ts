import { stat } from 'node:fs/promises';
import path from 'node:path';
import { caught } from '@garuda/test-utils';
import { expect } from 'vitest';
import { ConfigErrorCode } from '../src/errors.js';
import { fingerprint } from './fingerprint.js';

/**
 * Runs an edit of one server on a name the file lacks, on a missing file and on a file in a
 * missing folder: each must fail with NOT_FOUND naming the server, leave the file as it was
 * and create nothing.
 *
 * @param made - A folder holding `mcp.json` with `text` in it (see `tempDirs().file`).
 * @param existing - A server the file has (so only the file or folder is missing).
 * @param edit - The edit, of `name` in `file`.
 * @returns Each name with its error, for checks of one edit's own.
 */
export async function expectNotFound(
  made: { dir: string; file: string },
  existing: string,
  edit: (file: string, name: string) => Promise<unknown>,
): Promise<Array<[name: string, error: unknown]>> {
  const { dir, file } = made;
  const before = await fingerprint(file);
  const errors: Array<[string, unknown]> = [];
  for (const [target, name] of [
    [file, 'nope'],
    [file, 'my server'],
    [path.join(dir, 'none.json'), existing],
    [path.join(dir, 'no', 'such', 'mcp.json'), existing],
  ] as const) {
    const error = await caught(edit(target, name));
    expect(error).toMatchObject({ name: 'ServerEntryError', code: 'CONFIG_NOT_FOUND' });
    expect(error).toMatchObject({ code: ConfigErrorCode.NOT_FOUND, server: name });
    errors.push([name, error]);
  }
  expect(await fingerprint(file)).toBe(before);
  await expect(stat(path.join(dir, 'none.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  await expect(stat(path.join(dir, 'no'))).rejects.toMatchObject({ code: 'ENOENT' });
  return errors;
}
