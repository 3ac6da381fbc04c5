import { commandEntry, type HostDescriptor } from './host.js';

/** Claude Code: `.mcp.json` in the project, `~/.claude.json` for the user (and its projects). */
export const claudeCode = {
  id: 'claude',
  installName: 'claude-code',
  installOrder: 2,
  displayName: 'Claude Code',
  files: (scope, at, p) =>
    scope === 'project' ? [p.join(at.root, '.mcp.json')] : [p.join(at.userHome, '.claude.json')],
  format: 'json',
  serversKey: 'mcpServers',
  projectServers: true,
  variables: 'claude',
  fields: 'common',
  oauth: true,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
