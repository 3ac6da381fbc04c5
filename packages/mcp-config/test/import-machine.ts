import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { hostById } from '../src/hosts/index.js';
import { readImportSources } from '../src/import-sources.js';
import type {
  ImportClient,
  ImportSourcesResult,
  ReadImportSourcesOptions,
} from '../src/import-types.js';
import { put, tempDirs } from './temp-dir.js';

/** Where each client keeps its files on Linux, below the home folder or the project root. */
const FILES: Readonly<Record<ImportClient, { project?: string; user: string }>> = {
  claude: { project: '.mcp.json', user: '.claude.json' },
  'claude-desktop': { user: '.config/Claude/claude_desktop_config.json' },
  cursor: { project: '.cursor/mcp.json', user: '.cursor/mcp.json' },
  vscode: { project: '.vscode/mcp.json', user: '.config/Code/User/mcp.json' },
  gemini: { project: '.gemini/settings.json', user: '.gemini/settings.json' },
  codex: { user: '.codex/config.toml' },
};

/** A home folder and a project in a new temporary folder, with other clients' files in them. */
export interface Machine {
  readonly userHome: string;
  readonly root: string;
  /** The path of one client's file in one scope, on Linux. */
  readonly file: (client: ImportClient, scope: 'user' | 'project') => string;
  /** Writes a file under the home folder (`~/…`) or the project root (`./…`); returns its path. */
  readonly write: (where: string, content: string | Buffer) => Promise<string>;
  /** readImportSources for this home and project on Linux, with `options` on top. */
  readonly read: (options?: Partial<ReadImportSourcesOptions>) => Promise<ImportSourcesResult>;
}

/** What `importOne` read, with the machine it read it on. */
export type ImportedOne = ImportSourcesResult & { setup: Machine };

/**
 * Machines for the tests of one file, removed after each test (see `tempDirs`). Call at the top
 * level of a test file.
 */
export function importMachines(): {
  machine: () => Promise<Machine>;
  importOne: (
    client: ImportClient,
    servers: Record<string, unknown>,
    options?: {
      scope?: 'user' | 'project';
      existingNames?: string[];
      extra?: Record<string, unknown>;
    },
  ) => Promise<ImportedOne>;
} {
  const dirs = tempDirs();
  const machine = async (): Promise<Machine> => {
    const dir = await dirs.create();
    const userHome = path.join(dir, 'home');
    const root = path.join(dir, 'work', 'repo');
    await mkdir(userHome, { recursive: true });
    await mkdir(root, { recursive: true });
    return {
      userHome,
      root,
      file: (client, scope) => {
        const rel = scope === 'user' ? FILES[client].user : FILES[client].project;
        if (rel === undefined) throw new Error(`${client} has no ${scope} file`);
        return path.join(scope === 'user' ? userHome : root, rel);
      },
      write: (where, content) =>
        put(
          where.startsWith('~/')
            ? path.join(userHome, where.slice(2))
            : path.join(root, where.replace(/^\.\//, '')),
          content,
        ),
      read: (options = {}) => readImportSources({ userHome, root, platform: 'linux', ...options }),
    };
  };
  return {
    machine,
    /** Reads one client's servers written as `{ <listKey>: servers }` in the given scope. */
    importOne: async (client, servers, options = {}) => {
      const s = await machine();
      const scope = options.scope ?? (FILES[client].project === undefined ? 'user' : 'project');
      const key = hostById(client).serversKey;
      await put(
        s.file(client, scope),
        JSON.stringify({ ...options.extra, [key]: servers }, null, 2),
      );
      const result = await s.read({
        clients: [client],
        ...(options.existingNames === undefined ? {} : { existingNames: options.existingNames }),
      });
      return { ...result, setup: s };
    },
  };
}
