// The escape fixture server's one tool, which tries every way out of its sandbox.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliWorld } from './world.js';

/**
 * Plants a secret in Garuda's home and gives the arguments of the escape tool: write into the
 * project and to `outside`, read the secret, connect to 127.0.0.1:`port`.
 *
 * @param world - The test's world (its project and Garuda's home).
 * @param outside - A file outside the project, off /tmp (bubblewrap's is private).
 * @param port - A local listener that must see no connection.
 * @returns The tool's arguments.
 */
export async function escapeArguments(
  world: CliWorld,
  outside: string,
  port: number,
): Promise<Record<string, unknown>> {
  const secret = path.join(world.home, 'secret-token');
  await writeFile(secret, 'do not read me');
  return { root: world.root, outside, secretFile: secret, netHost: '127.0.0.1', netPort: port };
}
