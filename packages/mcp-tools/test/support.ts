// Test helpers for this package's tests (not part of the package). A real fixture server over
// Streamable HTTP on loopback: this package runs no process, so its tests need no sandbox.
import { startHttpFixture, type HttpFixtureMode } from '@garuda/test-utils';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * Runs `fn` with an SDK client connected to the HTTP fixture server of `mode`, then closes both.
 *
 * @param mode - The fixture's tool set (`normal`, `evil`, `many`, `longnames`…).
 * @param negotiation - `auto` negotiates the 2026 protocol with the fixture; `legacy` the 2025 one.
 * @param fn - The test body.
 * @returns What `fn` returns.
 */
export async function withFixtureClient<T>(
  mode: HttpFixtureMode,
  negotiation: 'auto' | 'legacy',
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const fixture = await startHttpFixture({ mode });
  const client = new Client(
    { name: 'garuda-test', version: '0.0.0' },
    { versionNegotiation: { mode: negotiation } },
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(fixture.url), { timeout: 20_000 });
    return await fn(client);
  } finally {
    await client.close().catch(() => {});
    await fixture.close();
  }
}
