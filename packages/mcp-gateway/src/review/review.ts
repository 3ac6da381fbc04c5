// The questions the gateway cannot ask when they come up: consent for a project's server,
// a server's changed tools, a sign-in. Nothing can answer them at that moment (no request of the
// host is there to carry a question; the host may not even be connected yet). A server that is
// starting is answered "no" at once (as `rules` would) and its question kept; a running server
// whose tools changed keeps running without its added and changed tools while its question
// stays open. While something waits, the gateway lists one tool of its own, `garuda_review`,
// whose description says what; calling it asks the host's user each question through
// elicitation (a form for consent, a page to open for a sign-in). A yes reloads a server that did
// not start, or answers the open question of a running one. The model may call the tool, but
// only the user's answer in the host's form decides.
import type {
  ConsentAnswer,
  ConsentRequest,
  McpManager,
  Prompter,
  SignInRequest,
} from '@garuda/mcp-manager';
import { inputRequired } from '@modelcontextprotocol/server';
import type { Conversation, ToolResult } from '../questions/conversations.js';
import type { GatewayTexts } from '../texts.js';

/** The gateway's own tool. One underscore: no server's tool (`<server>__<tool>`) can be named so. */
export const REVIEW_TOOL = 'garuda_review';

/**
 * At most this many questions per call of the tool: each is one round trip, and hosts (and the
 * SDK, for 2025 hosts) stop a request after about ten.
 */
const QUESTIONS_PER_REVIEW = 5;

const ALLOW_SESSION = 'Allow for this session';
const ALLOW_REMEMBER = 'Allow and remember';
const DENY = 'Deny';

/** One question kept for the review. */
type Waiting =
  | {
      readonly kind: 'server' | 'tools';
      readonly server: string;
      readonly request: ConsentRequest;
      /** A running server's question, still open: answering it lets its changed tools through. */
      readonly answer?: (answer: ConsentAnswer) => void;
    }
  | { readonly kind: 'sign-in'; readonly server: string; readonly request: SignInRequest };

function keyOf(kind: Waiting['kind'], server: string): string {
  return `${kind}:${server}`;
}

/** What a kept question is about, in a few words for the tool's description. */
function summary(waiting: Waiting): string {
  if (waiting.kind === 'server') {
    return `${waiting.request.source} server "${waiting.server}" asks to ${
      waiting.request.url === undefined ? 'start' : 'connect'
    }`;
  }
  if (waiting.kind === 'tools') return `server "${waiting.server}" changed its tools`;
  return `server "${waiting.server}" needs a sign-in`;
}

/** The questions kept for `garuda_review`, and the answers given through it. */
export class Review {
  readonly #waiting = new Map<string, Waiting>();
  /** Answers the user gave through the review, taken by the reload's consent question. */
  readonly #granted = new Map<string, ConsentAnswer>();
  /** Servers whose sign-in the user started through the review. */
  readonly #signingIn = new Set<string>();
  /** Where the sign-in page of the sign-in running now goes. */
  #page: ((url: string) => void) | undefined;
  /** One review at a time: two would share the sign-in page hook and the reloads. */
  #turn: Promise<unknown> = Promise.resolve();
  readonly #changed: () => void;
  readonly #texts: GatewayTexts;

  /**
   * @param changed - Called when what waits changed (the gateway's tool list changed).
   * @param texts - How questions and the ways to answer them elsewhere are worded.
   */
  constructor(changed: () => void, texts: GatewayTexts) {
    this.#changed = changed;
    this.#texts = texts;
  }

  /**
   * The prompter of the gateway: consent and sign-in answered from what the review was told, or
   * by `rules` (which says no without a flag), a no being kept for the review.
   */
  prompter(
    rules: Prompter,
    running: (server: string) => boolean,
    trustProject: boolean,
  ): Pick<Prompter, 'consent' | 'signIn'> {
    return {
      consent: async (request, signal) => {
        const key = keyOf(request.kind, request.server);
        const given = this.#granted.get(key);
        if (given !== undefined) {
          this.#granted.delete(key);
          return given;
        }
        const flagAnswers = trustProject && request.source === 'project';
        if (request.kind === 'tools' && running(request.server) && !flagAnswers) {
          return this.#hold(rules, request, signal);
        }
        const answer = await rules.consent(request, signal);
        if (answer !== 'once' && answer !== 'remember') {
          this.#keep({ kind: request.kind, server: request.server, request });
        }
        return answer;
      },
      signIn: async (request, signal) => {
        if (this.#signingIn.has(request.server)) return true;
        const yes = (await rules.signIn?.(request, signal)) ?? false;
        if (!yes) this.#keep({ kind: 'sign-in', server: request.server, request });
        return yes;
      },
    };
  }

  /**
   * The manager's `openBrowser` in the gateway: the page of a sign-in the review runs goes to the
   * host (the first page on the sign-in's own origin: a page a server asked the host to open at
   * the same time is not taken for it). Nothing is opened on this machine by the gateway itself.
   */
  openPage(url: string): void {
    this.#page?.(url);
  }

  /** The gateway's tool while something waits; its description says what. */
  tool(): { name: string; description: string; inputSchema: { type: 'object' } } | undefined {
    if (this.#waiting.size === 0) return undefined;
    const what = [...this.#waiting.values()].map(summary).join('; ');
    return {
      name: REVIEW_TOOL,
      description:
        `Questions for the user wait behind the Garuda gateway: ${what}. Until they are answered ` +
        `those servers' tools are not offered. Calling this tool asks the user each question in ` +
        `a form of this host (consent, a sign-in page to open); only the user's answer decides.`,
      inputSchema: { type: 'object' },
    };
  }

  /**
   * What a host that cannot ask gets from `garuda_review`: each question and how to answer it
   * elsewhere.
   */
  byCommands(): ToolResult {
    const lines = [...this.#waiting.values()].map(
      (waiting) => `- ${summary(waiting)}: ${this.#texts.answerElsewhere(waiting)}`,
    );
    return {
      content: [
        {
          type: 'text',
          text:
            'This host cannot show garuda-mcp\u2019s questions (it declared no elicitation), so ' +
            `they wait:\n${lines.join('\n')}\nThen restart the garuda-mcp server in this host.`,
        },
      ],
      isError: true,
    };
  }

  /**
   * The review: asks each kept question through the conversation, one after another, and
   * reloads (or signs in) each server the user allowed. Returns what became of each.
   */
  run(conversation: Conversation, mcp: McpManager): Promise<ToolResult> {
    const turn = this.#turn.then(() => this.#run(conversation, mcp));
    this.#turn = turn.catch(() => {});
    return turn;
  }

  async #run(conversation: Conversation, mcp: McpManager): Promise<ToolResult> {
    const lines: string[] = [];
    for (const waiting of [...this.#waiting.values()].slice(0, QUESTIONS_PER_REVIEW)) {
      if (conversation.signal.aborted) break;
      lines.push(
        waiting.kind === 'sign-in'
          ? await this.#signIn(conversation, mcp, waiting.server, waiting.request)
          : await this.#consent(conversation, mcp, waiting),
      );
    }
    if (lines.length === 0) lines.push('Nothing waits for an answer.');
    // Those not asked this time (past the limit, or come up meanwhile).
    const more = this.#waiting.size - lines.filter((line) => line.endsWith('still waits.')).length;
    if (more > 0) {
      lines.push(`${more} more wait: call ${REVIEW_TOOL} again to be asked.`);
    }
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  }

  async #consent(
    conversation: Conversation,
    mcp: McpManager,
    waiting: Waiting & { kind: 'server' | 'tools' },
  ): Promise<string> {
    const { server, request } = waiting;
    const what =
      waiting.kind === 'tools' ? `the changed tools of "${server}"` : `MCP server "${server}"`;
    const decision = await conversation.choose(
      `garuda-mcp asks:\n${this.#texts.consent(request)}`,
      `Allow ${what}?`,
      [ALLOW_SESSION, ALLOW_REMEMBER, DENY],
      conversation.signal,
    );
    const key = keyOf(waiting.kind, server);
    if (decision === undefined) return `${what}: not answered; it still waits.`;
    const reply = decision === DENY ? 'deny' : decision === ALLOW_REMEMBER ? 'remember' : 'once';
    if (waiting.answer !== undefined) {
      // A running server: its open question gets the answer; no restart.
      waiting.answer(reply);
      if (reply === 'deny') return `${what}: not allowed (you said no); they stay out.`;
      return `${what}: allowed; they are offered again (the host is told the tool list changed).`;
    }
    this.#forget(key);
    if (decision === DENY) return `${what}: not allowed (you said no).`;
    this.#granted.set(key, decision === ALLOW_REMEMBER ? 'remember' : 'once');
    try {
      await mcp.reload(server, { signal: conversation.signal });
    } catch (error) {
      return `${what}: allowed, but it did not start again: ${messageOf(error)}`;
    } finally {
      this.#granted.delete(key);
    }
    return `${what}: allowed; ${stateLine(mcp, server)}`;
  }

  async #signIn(
    conversation: Conversation,
    mcp: McpManager,
    server: string,
    request: SignInRequest,
  ): Promise<string> {
    const what = `the sign-in to "${server}"`;
    if (!conversation.asks.url) {
      return `${what}: this host cannot open a sign-in page for garuda-mcp (it declared no URL elicitation); ${this.#texts.signInElsewhere(server)}.`;
    }
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    conversation.signal.addEventListener('abort', onAbort, { once: true });
    let page!: (url: string) => void;
    const opened = new Promise<{ url: string }>(
      (resolve) =>
        (page = (url) => {
          if (originOf(url) !== request.signInOrigin) return;
          this.#page = undefined;
          resolve({ url });
        }),
    );
    this.#page = page;
    this.#signingIn.add(server);
    try {
      const done = mcp.signIn(server, { signal: stop.signal }).then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const first = await Promise.race([done, opened]);
      if ('url' in first) {
        const answer = await conversation.ask(
          inputRequired.elicitUrl({
            message: `garuda-mcp asks you to sign in:\n${this.#texts.signIn(request)}`,
            url: first.url,
          }),
          conversation.signal,
        );
        if (answer.kind !== 'elicit' || answer.action !== 'accept') {
          stop.abort();
          await done;
          return `${what}: not done (the page was not opened); it still waits.`;
        }
      }
      const outcome = await done;
      if (!outcome.ok) return `${what}: it did not complete: ${messageOf(outcome.error)}`;
      this.#forget(keyOf('sign-in', server));
      return `${what}: done; ${stateLine(mcp, server)}`;
    } finally {
      this.#page = undefined;
      this.#signingIn.delete(server);
      conversation.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * A running server's changed tools: the question stays open (the manager keeps the added and
   * changed tools out meanwhile) until the review answers it or the server stops.
   */
  #hold(rules: Prompter, request: ConsentRequest, signal?: AbortSignal): Promise<ConsentAnswer> {
    const key = keyOf('tools', request.server);
    rules.notice(
      `MCP server "${request.server}" changed its tools while it ran; its added and changed tools wait for your answer through the ${REVIEW_TOOL} tool of this host.`,
    );
    return new Promise<ConsentAnswer>((resolve) => {
      const answer = (reply: ConsentAnswer) => {
        signal?.removeEventListener('abort', stopped);
        this.#forget(key);
        resolve(reply);
      };
      const stopped = () => answer('deny');
      if (signal?.aborted === true) return stopped();
      signal?.addEventListener('abort', stopped, { once: true });
      this.#keep({ kind: 'tools', server: request.server, request, answer });
    });
  }

  #keep(waiting: Waiting): void {
    // A question asked anew replaces the old one; an old open one is answered no.
    const key = keyOf(waiting.kind, waiting.server);
    const old = this.#waiting.get(key);
    if (old !== undefined && old.kind !== 'sign-in' && old !== waiting) {
      this.#waiting.delete(key);
      old.answer?.('deny');
    }
    this.#waiting.set(keyOf(waiting.kind, waiting.server), waiting);
    this.#changed();
  }

  #forget(key: string): void {
    if (this.#waiting.delete(key)) this.#changed();
  }
}

/** A server's state after the review, in a few words. */
function stateLine(mcp: McpManager, server: string): string {
  const row = mcp.status().find((candidate) => candidate.name === server);
  if (row === undefined) return 'it is no longer configured.';
  if (row.state === 'connected') return `it is connected with ${row.tools} tools.`;
  return `it is ${row.state}${row.detail === undefined ? '' : `: ${row.detail}`}.`;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
