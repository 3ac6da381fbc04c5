import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import { importSourceFiles } from './import-paths.js';
import type { ImportedProjectFile } from './claude-project-file.js';
import type {
  ImportFile,
  ImportLocationOptions,
  ImportSourceFile,
  NotImportableServer,
  ReadImportSourcesOptions,
} from './import-types.js';

describe('public entry: importing other clients’ files', () => {
  it('exports the import API and its types', async () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const client: api.ImportClient = 'codex';
    const location: ImportLocationOptions = { userHome: '/h', root: '/r', platform: 'linux' };
    const options: ReadImportSourcesOptions = {
      ...location,
      clients: [client],
      existingNames: ['a'],
    };
    const note: api.ImportNote = {
      code: api.ImportNoteCode.RENAMED,
      from: 'A',
      to: 'a',
      message: 'm',
    };
    const source: ImportSourceFile = { client, scope: 'user', file: '/h/.codex/config.toml' };
    const file: ImportFile = { ...source, status: 'missing', problems: [] };
    const yes: api.ImportableServer = {
      ...source,
      path: ['mcp_servers', 'a'],
      sourceName: 'A',
      warnings: [note],
      importable: true,
      name: 'a',
      entry: { command: 'x' },
    };
    const no: NotImportableServer = { ...yes, importable: false, problems: [note] };
    const servers: api.ImportServer[] = [yes, no];
    const result: api.ImportSourcesResult = { files: [file], servers };
    const imported: ImportedProjectFile = { file: '/r/.mcp.json', client: 'claude' };
    const load: api.LoadConfigOptions = { env: {}, importedProjectFiles: [imported] };
    expect(result.servers).toHaveLength(2);
    expect(load.importedProjectFiles).toHaveLength(1);
    expect(importSourceFiles(options).map((f) => f.file)).toEqual(['/h/.codex/config.toml']);
    expect(api.IMPORT_CLIENTS.join(' ')).toBe('claude claude-desktop cursor vscode gemini codex');
    expect(Object.isFrozen(api.ImportNoteCode)).toBe(true);
    expect(api.LIMITS.maxImportFileBytes).toBe(16 * 1024 * 1024);
    expect(
      api.looksSecretName('API_KEY') &&
        api.looksSecretValue('ghp_16C7e42F292c6912E7710c838347Ae178B4a'),
    ).toBe(true);
    expect(
      (await api.readImportSources({ ...options, root: '/nonexistent-root' })).servers,
    ).toEqual([]);
  });
});
