// A hostile server's questions are bounded: a flood of forms is cut at the bound with one
// notice, a question closes with the call it came during (its end or its abort), and an open
// form gives way to a consent or approval question that waits behind it.
import { describe, expect, it } from 'vitest';
import {
  CallCancelledError,
  LIMITS,
  type ElicitReply,
  type ElicitRequest,
  type McpManagerOptions,
} from '../src/index.js';
import { ScriptedPrompter, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

const LEGACY = { FIXTURE_ERA: 'legacy' };

/** A prompter that answers every question with `accept`, or holds it open until its signal aborts. */
class AskingPrompter extends ScriptedPrompter {
  readonly asked: ElicitRequest[] = [];
  /** Hold each question open (until the manager aborts it) instead of answering. */
  hold = false;
  /** Resolves with each held question's signal once it aborted. */
  readonly closed: Promise<AbortSignal>[] = [];
  #opened: ((request: ElicitRequest) => void)[] = [];

  elicit(request: ElicitRequest, signal?: AbortSignal): Promise<ElicitReply> {
    this.asked.push(request);
    for (const resolve of this.#opened.splice(0)) resolve(request);
    if (!this.hold) return Promise.resolve({ action: 'accept', values: { ok: true } });
    let answer: (reply: ElicitReply) => void = () => {};
    const reply = new Promise<ElicitReply>((resolve) => (answer = resolve));
    this.closed.push(
      new Promise<AbortSignal>((closed) => {
        // A prompter that heeds its signal: the form is closed, and says so.
        signal?.addEventListener('abort', () => {
          answer({ action: 'cancel' });
          closed(signal);
        });
      }),
    );
    return reply;
  }

  /** Resolves when the next question reaches the prompter. */
  nextQuestion(): Promise<ElicitRequest> {
    return new Promise((resolve) => this.#opened.push(resolve));
  }
}

async function start(
  env: Readonly<Record<string, string>>,
  options: Partial<McpManagerOptions> = {},
) {
  await ws.userServers({ ask: fixture('asker', ws.mark, { env: { ...env } }) });
  const prompter = new AskingPrompter();
  const mcp = ws.manager(prompter, options);
  await mcp.start();
  return { prompter, mcp };
}

function actions(text: string): string[] {
  expect(text).toMatch(/^actions: /);
  return JSON.parse(text.slice('actions: '.length)) as string[];
}

const ERAS = [
  ['2025 revisions (requests)', LEGACY],
  ['2026-07-28 (input_required)', {}],
] as const;

describe.each(ERAS)('a flood of forms (hostile: elicitation flood), on the %s', (_era, env) => {
  it('is cut at the bound per call, with one notice, and the rest declined unseen', async () => {
    const { prompter, mcp } = await start(env);
    const text = unwrap((await mcp.call('mcp__ask__ask_flood', { count: 300 })).text);
    const got = actions(text);
    expect(got).toHaveLength(300);
    expect(got.filter((action) => action === 'accept')).toHaveLength(LIMITS.defaultElicitPerCall);
    expect(got.filter((action) => action === 'decline')).toHaveLength(
      300 - LIMITS.defaultElicitPerCall,
    );
    expect(prompter.asked).toHaveLength(LIMITS.defaultElicitPerCall);
    const told = prompter.notices.filter((notice) => notice.includes('questions during one call'));
    expect(told).toEqual([
      `MCP server "ask" asked you more than ${String(LIMITS.defaultElicitPerCall)} questions during one call, the most it may: declined without being shown.`,
    ]);
  });
});

it('bounds a server per minute across calls (hostile: elicitation flood over many calls)', async () => {
  const { prompter, mcp } = await start(LEGACY);
  const calls = Math.ceil(LIMITS.defaultElicitPerMinute / LIMITS.defaultElicitPerCall) + 2;
  for (let n = 0; n < calls; n += 1) {
    unwrap((await mcp.call('mcp__ask__ask_flood', { count: LIMITS.defaultElicitPerCall })).text);
  }
  expect(prompter.asked).toHaveLength(LIMITS.defaultElicitPerMinute);
  expect(
    prompter.notices.filter((notice) =>
      notice.includes(`more than ${String(LIMITS.defaultElicitPerMinute)} questions in a minute`),
    ),
  ).toHaveLength(1);
});

it('takes its bounds from the elicitation option', async () => {
  const { prompter, mcp } = await start(LEGACY, { elicitation: { perCall: 1 } });
  const got = actions(unwrap((await mcp.call('mcp__ask__ask_flood', { count: 4 })).text));
  expect(got).toEqual(['accept', 'decline', 'decline', 'decline']);
  expect(prompter.asked).toHaveLength(1);
});

describe('a question closes with its call (2025 revisions)', () => {
  it("an aborted call's open form sees its signal aborted", async () => {
    const { prompter, mcp } = await start(LEGACY);
    prompter.hold = true;
    const controller = new AbortController();
    const opened = prompter.nextQuestion();
    const call = mcp.call('mcp__ask__ask_hold', {}, { signal: controller.signal });
    await opened;
    controller.abort(new Error('the user pressed stop'));
    await expect(call).rejects.toSatisfy((error) => CallCancelledError.isInstance(error));
    const signal = await prompter.closed[0];
    expect(signal?.aborted).toBe(true);
  });

  it('a form the server leaves open after its call returned is closed', async () => {
    const { prompter, mcp } = await start(LEGACY);
    prompter.hold = true;
    const opened = prompter.nextQuestion();
    const text = unwrap((await mcp.call('mcp__ask__ask_and_leave', {})).text);
    expect(text).toBe('left a question open');
    await opened;
    expect((await prompter.closed[0])?.aborted).toBe(true);
  });
});

describe.each(ERAS)('an open form and a question behind it, on the %s', (_era, env) => {
  it('gives way: the approval waiting behind it is asked, and the form is closed with a notice', async () => {
    const { prompter, mcp } = await start(env, { elicitation: { giveWayMs: 100 } });
    prompter.hold = true;
    const opened = prompter.nextQuestion();
    const held = mcp.call('mcp__ask__ask_hold', {});
    await opened;
    // Another call needs its approval while the form is open.
    const approvals = prompter.approvals.length;
    const echo = await mcp.call('mcp__ask__echo', { text: 'not stuck' });
    expect(unwrap(echo.text)).toBe('not stuck');
    expect(prompter.approvals.length).toBe(approvals + 1);
    expect((await prompter.closed[0])?.aborted).toBe(true);
    expect(unwrap((await held).text)).toBe('answer: "cancel"');
    expect(prompter.notices).toContain(
      'The question of MCP server "ask" was closed unanswered: other questions were waiting behind it. The server was told it was cancelled and may ask again.',
    );
  });
});
