// Calls a host plays by hand, round by round (2026-07-28), and what the audit log says of them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from '@garuda/test-utils';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

/** A raw `initialize` request (2025-06-18) for requests sent without an SDK client. */
export { RAW_INITIALIZE } from '@garuda/test-utils';

/** The JSON inside one framed result (`<mcp_result …>\n…\n</mcp_result>`), parsed. */
export function framedJson<T>(text: string): T {
  return JSON.parse(text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n'))) as T;
}

/**
 * The calls the audit log of `home` records so far, in order, as `[tool, outcome]` (its lines
 * may land after a call's result: wait for the count you expect).
 */
export async function auditCalls(home: string): Promise<[string, string][]> {
  const log = await readFile(path.join(home, 'audit.jsonl'), 'utf8').catch(() => '');
  return log
    .split('\n')
    .filter((line) => line.includes('"kind":"call"'))
    .map((line) => JSON.parse(line) as { tool: string; outcome: string })
    .map(({ tool, outcome }) => [tool, outcome]);
}

/** One round of a call a host plays by hand (2026-07-28): a result, or a question. */
export interface Round {
  readonly resultType?: string;
  readonly inputRequests?: Record<string, { method: string; params: { message: string } }>;
  readonly requestState?: string;
  readonly content?: unknown;
  readonly isError?: boolean;
}

/** Checks that `round` ended its call (no further question) with an error that says `text`. */
export function expectFinalError(round: Round, text: string): void {
  expect(round.resultType).not.toBe('input_required');
  expect(round.isError).toBe(true);
  expect(JSON.stringify(round.content)).toContain(text);
}

/** The one question a round carries (its key and message). */
export function questionOf(round: Round): { key: string; message: string } {
  expect(round.resultType).toBe('input_required');
  const entries = Object.entries(round.inputRequests ?? {});
  expect(entries).toHaveLength(1);
  const [key, request] = entries[0]!;
  return { key, message: request.params.message };
}

/**
 * Plays one round of `tools/call` by hand: the call, or (with `answer`) the call again with the
 * answer to `answer.round`'s question and that round's `requestState`.
 */
export async function callRound(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  answer?: { readonly round: Round; readonly decision: string },
  signal?: AbortSignal,
): Promise<Round> {
  const retry =
    answer === undefined
      ? {}
      : {
          inputResponses: {
            [questionOf(answer.round).key]: {
              action: 'accept',
              content: { decision: answer.decision },
            },
          },
          requestState: answer.round.requestState,
        };
  return (await client.request(
    { method: 'tools/call', params: { name, arguments: args, ...retry } },
    { allowInputRequired: true, ...(signal === undefined ? {} : { signal }) },
  )) as Round;
}

/**
 * Two calls of one tool whose questions must stay with their own calls: `first` calls
 * `notes__slow` for a minute and allows it (its round stays open while it runs); `second` then
 * calls it too and must be asked in its own round (with its own `requestState`, never through
 * the first call's round), and its "Deny" decides only its own call. The first call is then
 * cancelled, and the audit log of `home` shows exactly that.
 */
export async function questionsStayWithTheirCalls(
  first: Client,
  second: Client,
  home: string,
): Promise<void> {
  const a = await callRound(first, 'notes__slow', { ms: 60_000 });
  expect(questionOf(a).message).toContain('60000');
  const stopA = new AbortController();
  const runningA = callRound(
    first,
    'notes__slow',
    { ms: 60_000 },
    { round: a, decision: 'Allow once' },
    stopA.signal,
  );
  runningA.catch(() => {});
  const b = await callRound(second, 'notes__slow', { ms: 4242 });
  expect(questionOf(b).message).toContain('4242');
  expect(questionOf(b).message).not.toContain('60000');
  expect(b.requestState).not.toBe(a.requestState);
  const deniedB = await callRound(
    second,
    'notes__slow',
    { ms: 4242 },
    { round: b, decision: 'Deny' },
  );
  expectFinalError(deniedB, 'This call was not run');
  stopA.abort();
  await expect(runningA).rejects.toThrow();
  await waitFor(async () => (await auditCalls(home)).length >= 2);
  expect(await auditCalls(home)).toEqual([
    ['slow', 'declined'],
    ['slow', 'cancelled'],
  ]);
}
