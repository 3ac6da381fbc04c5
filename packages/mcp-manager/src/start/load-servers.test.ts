import path from 'node:path';
import type { ServerConfig } from '@garuda/mcp-config';
import { describe, expect, it } from 'vitest';
import { SERVERS_OPTION_LABEL, serverOrigin } from './load-servers.js';
import type { CheckedOptions } from '../options.js';

const root = path.resolve('/work/project');
const options = (importConfigs: readonly 'claude'[]) =>
  ({ root, importConfigs }) as unknown as CheckedOptions;
const config = (source: 'user' | 'project', file: string) =>
  ({ name: 's', source, file }) as unknown as ServerConfig;

describe('serverOrigin: who keeps a name that clashes', () => {
  it('tells the servers option, the user file, the project file and an imported file apart', () => {
    const claude = options(['claude']);
    expect(serverOrigin(config('user', SERVERS_OPTION_LABEL), claude)).toBe('host');
    expect(serverOrigin(config('user', '/home/me/.garuda/mcp.json'), claude)).toBe('user');
    const own = path.join(root, '.garuda', 'mcp.json');
    expect(serverOrigin(config('project', own), claude)).toBe('project');
    const imported = path.join(root, '.mcp.json');
    expect(serverOrigin(config('project', imported), claude)).toBe('imported');
    // Without importConfigs, no file is read as another client's.
    expect(serverOrigin(config('project', imported), options([]))).toBe('project');
  });

  it("never ranks a project file as the user's, whatever its path says", () => {
    expect(serverOrigin(config('project', SERVERS_OPTION_LABEL), options([]))).toBe('project');
  });
});
