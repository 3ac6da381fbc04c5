import { commandEntry, inProjectAndHome, type HostDescriptor } from './host.js';

/** Gemini CLI: `.gemini/settings.json` in the project and in the home folder. */
export const gemini = {
  id: 'gemini',
  installName: 'gemini',
  installOrder: 5,
  displayName: 'Gemini CLI',
  files: inProjectAndHome('.gemini', 'settings.json'),
  format: 'jsonc',
  serversKey: 'mcpServers',
  projectServers: false,
  variables: 'gemini',
  fields: 'gemini',
  oauth: true,
  gatewayEntry: commandEntry,
} as const satisfies HostDescriptor;
