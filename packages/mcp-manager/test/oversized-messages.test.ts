// A line the transport drops for its size: a response ends the calls in flight at once (their
// answer is gone), a request or notification of the server's own ends none.
import { recordingLogger, type RecordingLogger } from '@garuda/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { ResultTooLargeError, type McpManager } from '../src/index.js';
import { fixture, unwrap, useWorkspace } from './support/e2e.js';

// Far past the test's own limit: a call that waited for it would fail the test by its timeout.
const CALL_LIMIT_MS = 600_000;

const ws = useWorkspace();
let log: RecordingLogger;
let mcp: McpManager;
beforeEach(async () => {
  log = recordingLogger();
  ({ mcp } = await ws.startUserServers(
    {
      // path_scoped, so that calls on different paths are in flight together (a serialized
      // server has one at a time).
      big: fixture('huge', ws.mark, {
        timeoutMs: CALL_LIMIT_MS,
        capabilities: ['read'],
        batching: 'path_scoped',
      }),
    },
    { logger: log.logger },
  ));
  expect(mcp.status()[0]?.state).toBe('connected');
});

function droppedLines(): string[] {
  return log.lines.debug.filter((l) => l.includes('larger than 4 MiB'));
}

// 5 MiB lines through a pipe: slow on a busy machine, hence their own timeouts.
describe('oversized messages from a server', () => {
  it(
    'an oversized response fails its call (and the others in flight) at once, as too large',
    { timeout: 120_000 },
    async () => {
      // `slow` first: it is in flight before the server even has the request for `huge`.
      const [slow, huge] = await Promise.allSettled([
        mcp.call('mcp__big__slow', { ms: 60_000, path: 'slow' }),
        mcp.call('mcp__big__huge', { mb: 5, path: 'huge' }),
      ]);
      // Both end as too large, not at the call limit (which would be a timeout) nor when `slow`
      // would have answered (which would be a result): that is "at once", whatever the load.
      for (const outcome of [huge, slow]) {
        expect(outcome.status).toBe('rejected');
        const error = (outcome as PromiseRejectedResult).reason as Error;
        expect(ResultTooLargeError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(/too large.*larger than 4 MiB/);
      }
      // The SDK writes a response's id last: the transport found it past the 4 MiB.
      expect(droppedLines()).toEqual([expect.stringMatching(/\(a response, id \d+\)$/)]);
      expect(unwrap((await mcp.call('mcp__big__echo', { text: 'after' })).text)).toBe('after');
    },
  );

  it.each([
    ['huge_notice', 'after the notice', /\(a notification\)$/],
    ['huge_request', 'after the request', /\(a request, id \d+\)$/],
  ])(
    'an oversized %s of the server itself ends no call',
    { timeout: 120_000 },
    async (tool, answer, shape) => {
      // A call in flight while the server's own line is dropped, and the call that makes it.
      const slow = mcp.call('mcp__big__slow', { ms: 5_000, path: 'slow' });
      let slowEnded = false;
      slow.then(
        () => (slowEnded = true),
        () => (slowEnded = true),
      );
      const own = await mcp.call(`mcp__big__${tool}`, { mb: 5, path: 'own' });
      expect(unwrap(own.text)).toBe(answer);
      // The line came before that answer, so `slow` was in flight when it was dropped.
      expect(slowEnded).toBe(false);
      expect(unwrap((await slow).text)).toBe('done');
      expect(droppedLines()).toEqual([expect.stringMatching(shape)]);
      expect(mcp.status()[0]?.state).toBe('connected');
    },
  );
});
