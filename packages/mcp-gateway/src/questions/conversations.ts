// How `garuda-mcp serve` asks the host's user something: as an `input_required` result of the
// request that needs the answer (protocol revision 2026-07-28: the host asks its user and sends
// the same request again with the answer). On a 2025-revision connection the SDK turns that
// result into a real `elicitation/create` request to the host and calls the handler again with
// the answer, so one code path serves both.
//
// The work behind a request (a tool call waiting for its approval, a server being reloaded after
// a consent) runs on while the host asks: a conversation keeps it, under a random id that goes
// out as the result's `requestState` and comes back with the answer. The id is only a key into
// this process's memory (128 random bits, never reused): an id that is not a conversation open
// here, or that belongs to another tool, gets nothing.
//
// A question belongs to the request it is about: the work runs inside its own conversation's
// async context, and a question asked from that work goes out with that conversation's rounds
// only (never with another request's, even one of the same tool or of another client). Questions
// of different conversations never wait for each other, and each waits for its answer at most
// the gateway's answer time limit, well under the minute after which hosts give up on a request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ContentBlock,
  type InputRequest,
  type InputResponseView,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * How long a question waits for its answer by default: hosts give up on a request after about a
 * minute (a 2025 host's call stays open while its user answers), so an unanswered question ends
 * well before that, as a refusal the host can show, rather than as the host's own time-out. A
 * conversation whose question is not answered by then expires (its call is not run).
 */
export const DEFAULT_ANSWER_TIMEOUT_MS = 45_000;

/** The longest answer time limit `serve` takes: with the grace below, under a host's limit. */
export const MAX_ANSWER_TIMEOUT_MS = 50_000;

/**
 * How much longer than a question a 2025 host's call waits for that host's answer: an answer
 * that comes just after the question expired is told it came too late (rather than the call
 * ending with the SDK's own time-out).
 */
export const LATE_ANSWER_GRACE_MS = 5_000;

/** The expired conversations remembered, so that a late answer is told it came too late. */
const EXPIRED_KEPT = 256;

/** What the host that sent a request can ask its user: a form, a page to open. */
export interface HostAsks {
  readonly form: boolean;
  readonly url: boolean;
}

/**
 * What this request's host declared it can ask: the capabilities the request carries (2026-07-28)
 * or those of its `initialize` (2025, over stdio or in its HTTP session).
 */
export function hostAsks(server: Server, context: ServerContext): HostAsks {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()) as
    ClientCapabilities | undefined;
  const elicitation = declared?.elicitation as { form?: object; url?: object } | undefined;
  if (elicitation === undefined || elicitation === null) return { form: false, url: false };
  // `elicitation: {}` is the 2025-06 way of saying "forms".
  const modes = elicitation.form !== undefined || elicitation.url !== undefined;
  return { form: !modes || elicitation.form !== undefined, url: elicitation.url !== undefined };
}

/** A tool result, as the gateway's handlers return them. */
export interface ToolResult {
  readonly content: ContentBlock[];
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** The answer to a question that was not answered (cancelled, expired, the gateway closed). */
const CANCELLED: InputResponseView = { kind: 'elicit', action: 'cancel' };

interface OpenQuestion {
  readonly key: string;
  readonly request: InputRequest;
  readonly resolve: (answer: InputResponseView) => void;
  sent: boolean;
}

/** One request's work and the question it waits on, across the host's rounds. */
export class Conversation {
  /** The `requestState` of its rounds. */
  readonly id = randomUUID();
  readonly #controller = new AbortController();
  readonly #questions: Conversations;
  #work: Promise<ToolResult> = Promise.resolve({ content: [] });
  #question: OpenQuestion | undefined;
  #wake: (() => void) | undefined;
  #asked = 0;
  #turn: Promise<unknown> = Promise.resolve();

  constructor(
    questions: Conversations,
    /** The tool name the host called (its rounds must name it too). */
    readonly hostTool: string,
    /** The manager's tool name, if a server's tool (an approval question must be about it). */
    readonly tool: string | undefined,
    readonly asks: HostAsks,
  ) {
    this.#questions = questions;
  }

  /** Aborts when the conversation is over without its answer (expired, cancelled, closed). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** @internal Starts the work (once), inside this conversation's async context. */
  begin(work: (conversation: Conversation) => Promise<ToolResult>): void {
    this.#work = this.#questions.within(this, () => work(this));
  }

  /**
   * Asks the host's user (called by the work): the request goes out with the next round's
   * result, and the answer comes back with the host's next round. Questions of one conversation
   * are asked one after another. A question not answered within the answer time limit expires
   * the conversation (answered `cancel`, its work cancelled); one cancelled through `signal` or
   * the conversation is answered `cancel`.
   */
  ask(request: InputRequest, signal?: AbortSignal): Promise<InputResponseView> {
    const turn = this.#turn.then(() => this.#askNow(request, signal));
    this.#turn = turn.catch(() => {});
    return turn;
  }

  #askNow(request: InputRequest, signal: AbortSignal | undefined): Promise<InputResponseView> {
    if (this.#controller.signal.aborted || signal?.aborted === true) {
      return Promise.resolve(CANCELLED);
    }
    this.#asked += 1;
    const key = `q${this.#asked}`;
    return new Promise<InputResponseView>((resolve) => {
      const timer = setTimeout(() => {
        finish(CANCELLED);
        this.#questions.expired(this);
        this.cancel();
      }, this.#questions.answerTimeoutMs);
      timer.unref();
      const onAbort = () => finish(CANCELLED);
      const finish = (answer: InputResponseView) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#controller.signal.removeEventListener('abort', onAbort);
        if (this.#question?.key === key) this.#question = undefined;
        resolve(answer);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#controller.signal.addEventListener('abort', onAbort, { once: true });
      this.#question = { key, request, resolve: finish, sent: false };
      this.#wake?.();
    });
  }

  /**
   * Asks the host's user to pick one of `choices` in a form (its `message`, one field titled
   * `title`). Resolves with the choice, or `undefined` when the form was declined, cancelled or
   * answered with something that is not one of them.
   */
  async choose<T extends string>(
    message: string,
    title: string,
    choices: readonly T[],
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    return (await this.pick(message, title, choices, signal)).choice;
  }

  /**
   * {@link choose}, also telling how the form was answered: `accept` (with `choice` when it is
   * one of `choices`), `decline` or `cancel` (also for a question not answered: expired,
   * cancelled, the gateway closed).
   */
  async pick<T extends string>(
    message: string,
    title: string,
    choices: readonly T[],
    signal?: AbortSignal,
  ): Promise<{ readonly action: 'accept' | 'decline' | 'cancel'; readonly choice?: T }> {
    const answer = await this.ask(
      inputRequired.elicit({
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: { decision: { type: 'string', title, enum: [...choices] } },
          required: ['decision'],
        },
      }),
      signal,
    );
    if (answer.kind !== 'elicit') return { action: 'cancel' };
    if (answer.action !== 'accept') return { action: answer.action };
    const decision = answer.content?.decision;
    const choice = choices.find((one) => one === decision);
    return choice === undefined ? { action: 'accept' } : { action: 'accept', choice };
  }

  /**
   * One round of the host: takes the answer it brings (if any), then waits until the work is
   * done (its result) or asks something (an `input_required` result carrying the question).
   * The host cancelling this round's request cancels the conversation.
   */
  async round(context: ServerContext): Promise<ToolResult | ReturnType<typeof inputRequired>> {
    const open = this.#question;
    if (open?.sent === true) {
      const answer = inputResponse(context.mcpReq.inputResponses, open.key);
      // A round without the answer gets the same question again.
      if (answer.kind !== 'missing') open.resolve(answer);
    }
    const cancel = () => this.cancel();
    context.mcpReq.signal.addEventListener('abort', cancel, { once: true });
    try {
      const done = this.#work.then((result) => ({ result }));
      const next = await Promise.race([done, this.#opened().then(() => ({ result: undefined }))]);
      if (next.result !== undefined) {
        this.#questions.forget(this);
        return next.result;
      }
      const question = this.#question!;
      question.sent = true;
      return inputRequired({
        inputRequests: { [question.key]: question.request },
        requestState: this.id,
      });
    } finally {
      context.mcpReq.signal.removeEventListener('abort', cancel);
    }
  }

  /** Ends the conversation without its answers: an open question is answered `cancel`. */
  cancel(): void {
    this.#questions.forget(this);
    this.#controller.abort();
  }

  /** Resolves when a question is open (at once if one is). */
  #opened(): Promise<void> {
    if (this.#question !== undefined) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }
}

/** What a round's `requestState` names: an open conversation, or why there is none. */
export type RoundOf = Conversation | 'expired' | 'unknown' | undefined;

/** The conversations open in one gateway. */
export class Conversations {
  readonly #open = new Map<string, Conversation>();
  /** Ids of conversations that expired lately (oldest first), for a late answer's refusal. */
  readonly #expired = new Set<string>();
  /** The conversation whose work runs in the current async context. */
  readonly #current = new AsyncLocalStorage<Conversation | undefined>();
  readonly #onExpired: (conversation: Conversation) => void;

  /**
   * @param options - How long a question waits for its answer ({@link DEFAULT_ANSWER_TIMEOUT_MS}
   *   unless given), and what to do when one expires (tell the log).
   */
  constructor(
    options: {
      readonly answerTimeoutMs?: number;
      readonly onExpired?: (conversation: Conversation) => void;
    } = {},
  ) {
    this.answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
    this.#onExpired = options.onExpired ?? (() => {});
  }

  /** How long one question waits for its answer, in ms. */
  readonly answerTimeoutMs: number;

  /**
   * Starts a request's work as a conversation and plays its first round.
   *
   * @param about - The tool name the host called; the manager's tool name, when it is a
   *   server's tool; what the host can ask.
   */
  start(
    context: ServerContext,
    about: { readonly hostTool: string; readonly tool?: string; readonly asks: HostAsks },
    work: (conversation: Conversation) => Promise<ToolResult>,
  ): Promise<ToolResult | ReturnType<typeof inputRequired>> {
    const conversation = new Conversation(this, about.hostTool, about.tool, about.asks);
    this.#open.set(conversation.id, conversation);
    conversation.begin(work);
    return conversation.round(context);
  }

  /**
   * Runs a request's work that has no conversation (its host cannot be asked): whatever it asks
   * finds no conversation, whichever request's context it was started from.
   */
  alone<T>(work: () => Promise<T>): Promise<T> {
    return this.#current.run(undefined, work);
  }

  /** @internal Runs `work` as `conversation`'s. */
  within<T>(conversation: Conversation, work: () => Promise<T>): Promise<T> {
    return this.#current.run(conversation, work);
  }

  /**
   * The conversation of the work that is asking: the request the question is about, and the
   * only one whose rounds may carry it. `undefined` outside a conversation's work, or when that
   * conversation is over (expired, cancelled, done).
   */
  current(): Conversation | undefined {
    const conversation = this.#current.getStore();
    return conversation !== undefined && this.#open.get(conversation.id) === conversation
      ? conversation
      : undefined;
  }

  /**
   * The conversation a round belongs to: its `requestState`, for the same tool. `undefined`
   * when the round carries no state; `'expired'` when its question was not answered in time;
   * `'unknown'` when it names no conversation open here (finished, cancelled, made up, or
   * another tool's).
   */
  of(context: ServerContext, hostTool: string): RoundOf {
    const state = context.mcpReq.requestState<unknown>();
    if (state === undefined) return undefined;
    if (typeof state !== 'string') return 'unknown';
    const conversation = this.#open.get(state);
    if (conversation !== undefined)
      return conversation.hostTool === hostTool ? conversation : 'unknown';
    return this.#expired.has(state) ? 'expired' : 'unknown';
  }

  /** @internal A conversation whose question was not answered in time. */
  expired(conversation: Conversation): void {
    this.#expired.add(conversation.id);
    if (this.#expired.size > EXPIRED_KEPT) {
      this.#expired.delete(this.#expired.values().next().value as string);
    }
    this.#onExpired(conversation);
  }

  /** @internal */
  forget(conversation: Conversation): void {
    this.#open.delete(conversation.id);
  }

  /** Cancels every conversation (the gateway is closing). */
  cancelAll(): void {
    for (const conversation of [...this.#open.values()]) conversation.cancel();
  }
}
