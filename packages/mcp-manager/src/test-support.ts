// Test helpers for this package's own unit tests (not part of the package: index.ts does not
// export them, so tsup leaves them out). Real fixture processes, no mocks of the code under test.
// The oracles for hostile leftovers are in @garuda/test-utils.
import { ProcessTransport } from '@garuda/mcp-transport';
import { Client, type Transport } from '@modelcontextprotocol/client';

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
