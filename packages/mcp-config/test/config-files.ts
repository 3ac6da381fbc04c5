import { loadConfig, type LoadConfigResult } from '../src/load-config.js';
import { writeIn, type TempDirs } from './temp-dir.js';

/** A server that loads, for files that must show whether the rest of the file still does. */
export const GOOD = '"good": { "command": "good-server" }';

/** A file with one good server and the bad one, each on its own line. */
export function fileWith(server: string): string {
  return `{\n  "servers": {\n    ${GOOD},\n    ${server}\n  }\n}\n`;
}

/** What a test loaded: loadConfig's result and the file it read. */
export type LoadedUserFile = LoadConfigResult & { file: string };

/**
 * A loader of one user file: it writes `content` (text, or a value as JSON) as `mcp.json` in a
 * new folder of `dirs` and loads it as the user's file, with `env`.
 */
export function userFileLoader(
  dirs: TempDirs,
): (content: string | object, env?: Record<string, string>) => Promise<LoadedUserFile> {
  return async (content, env = {}) => {
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    const file = await writeIn(await dirs.create(), 'mcp.json', text);
    return { file, ...(await loadConfig({ userFile: file, env })) };
  };
}

/**
 * Writes a user file (`home/mcp.json`) and a project file (`repo/.garuda/mcp.json`) in `dir`, and
 * loads both.
 */
export async function loadUserAndProject(
  dir: string,
  userText: string,
  projectText: string,
): Promise<LoadConfigResult & { userFile: string; projectFile: string }> {
  const userFile = await writeIn(dir, 'home/mcp.json', userText);
  const projectFile = await writeIn(dir, 'repo/.garuda/mcp.json', projectText);
  return { userFile, projectFile, ...(await loadConfig({ userFile, projectFile, env: {} })) };
}
