import { commandEntry, type HostDescriptor } from './host.js';

/** Codex CLI: `~/.codex/config.toml`, servers as `[mcp_servers.<name>]` tables; no project file. */
export const codex = {
  id: 'codex',
  installName: 'codex',
  installOrder: 6,
  displayName: 'Codex CLI',
  files: (scope, at, p) =>
    scope === 'project' ? [] : [p.join(at.userHome, '.codex', 'config.toml')],
  format: 'toml',
  serversKey: 'mcp_servers',
  projectServers: false,
  variables: 'none',
  fields: 'codex',
  oauth: false,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
