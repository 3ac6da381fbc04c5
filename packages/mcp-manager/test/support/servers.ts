// Test helpers for the unit tests beside the source (src/**/*.test.ts): outside src/, so they are
// never part of the package. Real fixture processes, no mocks of the code under test.
// The oracles for hostile leftovers are in @garuda/test-utils.
import type { LocalServerConfig, ResolvedValue } from '@garuda/mcp-config';
import { ProcessTransport } from '@garuda/mcp-transport';
import { Client, type Transport } from '@modelcontextprotocol/client';
import { localDefaults } from '@garuda/test-utils';

/** The `PATH` a fixture process gets. */
export const FIXTURE_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Runs `fn` with an SDK client connected to a fixture server over `ProcessTransport`, then
 * closes it.
 *
 * @param command - `fixtureCommand(mode)` of `@garuda/test-utils`.
 * @param mode - `auto` negotiates the 2026 protocol with the fixtures; `legacy` the 2025 one.
 * @param fn - The test body.
 * @param wrap - Wraps the transport before connecting (e.g. `filterToolLists`).
 * @returns What `fn` returns.
 */
export async function withFixtureClient<T>(
  command: { readonly command: string; readonly args: readonly string[] },
  mode: 'auto' | 'legacy',
  fn: (client: Client, inner: ProcessTransport) => Promise<T>,
  wrap: (inner: ProcessTransport) => Transport = (inner) => inner,
): Promise<T> {
  const inner = new ProcessTransport({
    command: command.command,
    args: command.args,
    env: { PATH: FIXTURE_PATH },
  });
  const client = new Client(
    { name: 'garuda-test', version: '0.0.0' },
    { versionNegotiation: { mode } },
  );
  try {
    await client.connect(wrap(inner), { timeout: 20_000 });
    return await fn(client, inner);
  } finally {
    await client.close().catch(() => {});
  }
}

/** Where a {@link localServer} comes from, and what it changes of the defaults. */
export interface LocalServerParts {
  readonly name: string;
  readonly source: 'user' | 'project';
  /** The config file it is read from. */
  readonly file: string;
  /** Its definition's fields that are not the defaults (`command` is required in a file). */
  readonly def: Partial<LocalServerConfig['def']> & { readonly command: string };
  /** Its resolved env values. Default none. */
  readonly env?: Record<string, ResolvedValue>;
}

/**
 * A local server as `loadConfig` gives it, with every default of its definition from
 * `localDefaults` of the test utilities (not from mcp-config, so a change of a default shows).
 *
 * @param parts - Its name, source, file, the fields of its definition that differ, its env.
 * @returns The loaded server.
 */
export function localServer(parts: LocalServerParts): LocalServerConfig {
  return {
    kind: 'local',
    name: parts.name,
    source: parts.source,
    file: parts.file,
    def: { ...localDefaults(parts.def.command), ...parts.def },
    env: parts.env ?? {},
  };
}
