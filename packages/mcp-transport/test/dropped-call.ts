// A test helper for the size caps of both transports.
import { waitFor } from '@garuda/test-utils';
import { SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/**
 * Calls a tool whose answer the transport drops for its size, so the call can never be
 * answered: waits until `reported()` says the transport reported the drop (not for a timeout),
 * checks that the call got no answer meanwhile, then ends the call from here and checks that
 * it ended with that abort. A slow machine only makes it slower.
 *
 * @param client - The connected client.
 * @param params - The call.
 * @param reported - Whether the drop has been reported (e.g. through `onerror`).
 */
export async function expectDroppedCall(
  client: Client,
  params: { name: string; arguments?: Record<string, unknown> },
  reported: () => boolean,
): Promise<void> {
  const stop = new SdkError(SdkErrorCode.RequestTimeout, 'ended by the test');
  const controller = new AbortController();
  const call = client.callTool(params, { signal: controller.signal, timeout: 600_000 });
  let outcome: unknown = 'no answer';
  call.then(
    () => (outcome = 'answered'),
    (error: unknown) => (outcome = error),
  );
  await waitFor(() => outcome !== 'no answer' || reported(), { timeoutMs: 100_000 });
  expect(outcome).toBe('no answer');
  controller.abort(stop);
  await expect(call).rejects.toBe(stop);
}
