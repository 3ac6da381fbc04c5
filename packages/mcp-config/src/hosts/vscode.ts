import type { HostDescriptor } from './host.js';

/** VS Code: `.vscode/mcp.json` in the project, `User/mcp.json` in the app's settings folder. */
export const vscode = {
  id: 'vscode',
  installName: 'vscode',
  installOrder: 4,
  displayName: 'VS Code',
  files: (scope, at, p) =>
    scope === 'project'
      ? [p.join(at.root, '.vscode', 'mcp.json')]
      : [p.join(at.appFolder('Code'), 'User', 'mcp.json')],
  format: 'jsonc',
  serversKey: 'servers',
  projectServers: false,
  variables: 'editor-inputs',
  fields: 'common',
  oauth: false,
  gatewayEntry: (command, args) => ({ type: 'stdio', command, args: [...args] }),
} as const satisfies HostDescriptor;
