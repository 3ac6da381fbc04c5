import { commandEntry, type HostDescriptor } from './host.js';

/** Cursor: `.cursor/mcp.json` in the project and in the home folder. */
export const cursor = {
  id: 'cursor',
  installName: 'cursor',
  installOrder: 3,
  displayName: 'Cursor',
  files: (scope, at, p) => [
    p.join(scope === 'project' ? at.root : at.userHome, '.cursor', 'mcp.json'),
  ],
  format: 'jsonc',
  serversKey: 'mcpServers',
  projectServers: false,
  variables: 'editor',
  fields: 'common',
  oauth: false,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
