import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * Temporary folders for the tests of one file: `create()` makes one, and every folder made
 * during a test is removed after it. Call at the top level of a test file.
 */
export function tempDirs(): {
  create: () => Promise<string>;
  file: (content?: string) => Promise<{ dir: string; file: string }>;
} {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const create = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'garuda-mcp-config-'));
    made.push(dir);
    return dir;
  };
  return {
    create,
    /** A new folder and the path of `mcp.json` in it, written with `content` when there is one. */
    file: async (content) => {
      const dir = await create();
      const file = path.join(dir, 'mcp.json');
      if (content !== undefined) await writeFile(file, content);
      return { dir, file };
    },
  };
}

/** The folders of one test file, as `tempDirs()` makes them. */
export type TempDirs = ReturnType<typeof tempDirs>;

/** Writes `content` to `file`, making its folder first; returns `file`. */
export async function put(file: string, content: string | Buffer): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

/** Writes `content` to `name` (a relative path, folders and all) below `dir`; returns its path. */
export function writeIn(dir: string, name: string, content: string | Buffer): Promise<string> {
  return put(path.join(dir, name), content);
}

/** 1-based line and column of `offset` in `text`, counted independently of the package. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: (before[before.length - 1] ?? '').length + 1 };
}

/** Position of the first occurrence of `needle` at or after `from` (it must occur). */
export function positionOfText(
  text: string,
  needle: string,
  from = 0,
): { line: number; column: number } {
  const offset = text.indexOf(needle, from);
  if (offset === -1) throw new Error(`${needle} not found in the test text`);
  return positionOf(text, offset);
}
