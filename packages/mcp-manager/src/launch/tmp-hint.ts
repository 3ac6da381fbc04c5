import path from 'node:path';
import type { LocalServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import { isWithin } from './paths.js';

/** The folders bubblewrap replaces with an empty private one for every server. */
const PRIVATE_TEMP = ['/tmp', '/var/tmp'];

/**
 * Why a sandboxed local server that failed to start may not have found its files: the first
 * absolute path of its command, arguments or folder that lies under /tmp or /var/tmp (which the
 * sandbox replaces with an empty folder) outside the project and the sandbox's read paths.
 * `undefined` when there is none, and under any sandbox but bubblewrap: Seatbelt (macOS) leaves
 * the machine's temp folders in place, so a server there is seen. @internal
 *
 * @param server - The local server.
 * @param visible - Folders the sandbox shows anyway: the project root and the read paths.
 * @param sandbox - The sandbox it ran in.
 * @returns A sentence to add to the failure, or `undefined`.
 */
export function hiddenTempHint(
  server: LocalServerConfig,
  visible: readonly string[],
  sandbox: SandboxInfo['kind'],
): string | undefined {
  if (sandbox !== 'bwrap') return undefined;
  const candidates = [server.def.command, ...server.def.args, server.def.cwd ?? ''];
  for (const candidate of candidates) {
    if (!path.isAbsolute(candidate)) continue;
    const file = path.resolve(candidate);
    if (!PRIVATE_TEMP.some((temp) => isWithin(file, temp))) continue;
    if (visible.some((folder) => isWithin(file, path.resolve(folder)))) continue;
    return (
      `${file} is under ${PRIVATE_TEMP.find((temp) => isWithin(file, temp)) ?? '/tmp'}, which the ` +
      `sandbox replaces with an empty folder: add its folder to the sandbox's read paths ` +
      `(the sandbox.readPaths option)`
    );
  }
  return undefined;
}
