// Helpers for this package's tests only (not exported from the package).
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { fixtureCommand } from './fixture-server.js';
import { SpawnTransport } from './spawn-transport.js';
import type { StdioFixtureMode } from '../fixtures/tools.mjs';

export type Negotiation = 'auto' | 'legacy';

export function newClient(negotiation: Negotiation, options: ClientOptions = {}): Client {
  return new Client(
    { name: 'garuda-test-utils', version: '0.0.0' },
    { ...options, versionNegotiation: { mode: negotiation } },
  );
}

export interface StdioConnection {
  client: Client;
  transport: SpawnTransport;
  close(): Promise<void>;
}

/** Spawns the stdio fixture in `mode` and connects an SDK Client to it. */
export async function connectStdio(
  mode: StdioFixtureMode,
  negotiation: Negotiation = 'auto',
  spawnOptions: { env?: NodeJS.ProcessEnv; cwd?: string; keepLines?: boolean } = {},
): Promise<StdioConnection> {
  const { command, args } = fixtureCommand(mode);
  const transport = new SpawnTransport(command, args, spawnOptions);
  const client = newClient(negotiation);
  client.onerror = () => {}; // the tests look at results; onerror is noisy by design
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw error;
  }
  return {
    client,
    transport,
    close: async () => {
      await client.close().catch(() => {});
      await transport.close();
    },
  };
}

/** The text of every text block of a tool result, joined by newlines. */
export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content)
    ? (result.content as { type: string; text?: string }[])
    : [];
  return blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n');
}
