// A gateway over loopback HTTP in front of fixture servers run by a real manager, for the
// package's tests: made in a temporary home, and ended by the test's cleanups.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { McpManager, type Prompter } from '@garuda/mcp-manager';
import { tempDir } from '@garuda/test-utils';
import {
  createGateway,
  serveHttp,
  type Gateway,
  type GatewayOptions,
  type HttpGateway,
} from '../../src/index.js';

/** The checkout, which the fixture servers are read from. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

/** What a cleanup list takes. */
export type Cleanups = (() => Promise<void>)[];

/**
 * Starts a gateway over HTTP in front of `servers` (name → command) and waits for their start.
 * The fixtures are read from the checkout, which may be under /tmp (the sandbox's own), so the
 * sandbox may read it.
 *
 * @param servers - The manager's servers.
 * @param rules - The gateway's rules prompter.
 * @param options - The gateway's other options (approvals, allowEveryCall, …).
 * @param cleanups - Where the temporary home, the gateway and the endpoint are ended.
 */
export async function servedGateway(
  servers: Record<string, { command: string; args: string[] }>,
  rules: Prompter,
  options: Omit<GatewayOptions, 'manager' | 'rules'>,
  cleanups: Cleanups,
): Promise<{ gateway: Gateway; endpoint: HttpGateway }> {
  const dir = await tempDir('garuda-gateway-test-');
  cleanups.push(() => dir.cleanup());
  const where = { root: dir.path, home: `${dir.path}/.garuda`, userHome: dir.path, env: {} };
  const gateway = createGateway({
    ...options,
    manager: (hooks) =>
      new McpManager({ ...where, servers, sandbox: { readPaths: [REPO_ROOT] }, ...hooks }),
    rules,
  });
  cleanups.push(() => gateway.close());
  await gateway.started;
  const endpoint = await serveHttp(gateway, {
    token: { token: randomBytes(32).toString('base64url') },
    port: 0,
    onError: () => {},
  });
  cleanups.push(() => endpoint.close());
  return { gateway, endpoint };
}
