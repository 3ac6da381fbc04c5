import { commandEntry, inProjectAndHome, type HostDescriptor } from './host.js';

/** Cursor: `.cursor/mcp.json` in the project and in the home folder. */
export const cursor = {
  id: 'cursor',
  installName: 'cursor',
  installOrder: 3,
  displayName: 'Cursor',
  files: inProjectAndHome('.cursor', 'mcp.json'),
  format: 'jsonc',
  serversKey: 'mcpServers',
  projectServers: false,
  variables: 'editor',
  fields: 'common',
  oauth: false,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
