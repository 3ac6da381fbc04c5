// Every host Garuda knows, one file each. Adding a host: its file in this folder, and one line
// in HOSTS below (the order in which import reads the hosts' files).
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import type { HostDescriptor } from './host.js';
import { vscode } from './vscode.js';

/**
 * The MCP hosts Garuda reads (`readImportSources`) and writes its gateway's entry to
 * (`garuda-mcp install`), in the order their files are read.
 */
export const HOSTS = Object.freeze([
  claudeCode,
  claudeDesktop,
  cursor,
  vscode,
  gemini,
  codex,
] as const satisfies readonly HostDescriptor[]);

/** The id of one of {@link HOSTS}. */
export type HostId = (typeof HOSTS)[number]['id'];

/** The descriptor of a host by its id. @internal */
export function hostById(id: HostId): HostDescriptor {
  const host = HOSTS.find((h) => h.id === id);
  if (host === undefined) throw new TypeError(`no host ${String(id)}`);
  return host;
}
