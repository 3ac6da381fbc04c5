import { commandEntry, type HostDescriptor } from './host.js';

/** Claude Desktop: `claude_desktop_config.json` in the app's settings folder; no project file. */
export const claudeDesktop = {
  id: 'claude-desktop',
  installName: 'claude-desktop',
  installOrder: 1,
  displayName: 'Claude Desktop',
  files: (scope, at, p) =>
    scope === 'project' ? [] : [p.join(at.appFolder('Claude'), 'claude_desktop_config.json')],
  format: 'json',
  serversKey: 'mcpServers',
  projectServers: false,
  variables: 'none',
  fields: 'common',
  oauth: false,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
