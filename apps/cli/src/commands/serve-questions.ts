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
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequest,
  type InputResponseView,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * How long a question waits for its answer: the SDK's own limit for one question to a 2025
 * host. A conversation whose question is not answered by then is cancelled (its call not run).
 */
export const ANSWER_TIMEOUT_MS = 600_000;

/** What the host that sent a request can ask its user: a form, a page to open. */
export interface HostAsks {
  readonly form: boolean;
  readonly url: boolean;
}

/**
 * What this request's host declared it can ask: the capabilities the request carries (2026-07-28)
 * or those of its `initialize` (2025). A stateless 2025 request over HTTP carries none: no.
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
  readonly content: (
    { type: 'text'; text: string } | { type: 'image' | 'audio'; data: string; mimeType: string }
  )[];
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
    /** The manager's tool name (approval questions are matched with it), if a server's tool. */
    readonly tool: string | undefined,
    /** That tool's server (its own questions are matched with it). */
    readonly server: string | undefined,
    readonly asks: HostAsks,
  ) {
    this.#questions = questions;
  }

  /** Aborts when the conversation is over without its answer (expired, cancelled, closed). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether a question is open right now. */
  get asking(): boolean {
    return this.#question !== undefined;
  }

  /** @internal Starts the work (once). */
  begin(work: (conversation: Conversation) => Promise<ToolResult>): void {
    this.#work = work(this);
  }

  /**
   * Asks the host's user (called by the work): the request goes out with the next round's
   * result, and the answer comes back with the host's next round. Questions of one conversation
   * are asked one after another. A question not answered in {@link ANSWER_TIMEOUT_MS}, or
   * cancelled through `signal` or the conversation, is answered `cancel`.
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
        this.cancel();
      }, ANSWER_TIMEOUT_MS);
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
    if (answer.kind !== 'elicit' || answer.action !== 'accept') return undefined;
    const decision = answer.content?.decision;
    return choices.find((choice) => choice === decision);
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

/** The conversations open in one gateway. */
export class Conversations {
  readonly #open = new Map<string, Conversation>();

  /**
   * Starts a request's work as a conversation and plays its first round.
   *
   * @param about - The tool name the host called; the manager's tool name and its server, when
   *   it is a server's tool; what the host can ask.
   */
  start(
    context: ServerContext,
    about: {
      readonly hostTool: string;
      readonly tool?: string;
      readonly server?: string;
      readonly asks: HostAsks;
    },
    work: (conversation: Conversation) => Promise<ToolResult>,
  ): Promise<ToolResult | ReturnType<typeof inputRequired>> {
    const conversation = new Conversation(
      this,
      about.hostTool,
      about.tool,
      about.server,
      about.asks,
    );
    this.#open.set(conversation.id, conversation);
    conversation.begin(work);
    return conversation.round(context);
  }

  /**
   * The conversation a round belongs to: its `requestState`, for the same tool. `undefined`
   * when the round carries no state; `null` when it names no conversation open here (expired,
   * finished, made up, or another tool's).
   */
  of(context: ServerContext, hostTool: string): Conversation | null | undefined {
    const state = context.mcpReq.requestState<unknown>();
    if (state === undefined) return undefined;
    const conversation = typeof state === 'string' ? this.#open.get(state) : undefined;
    return conversation?.hostTool === hostTool ? conversation : null;
  }

  /** The oldest open conversation that matches and asks nothing yet. */
  find(matches: (conversation: Conversation) => boolean): Conversation | undefined {
    for (const conversation of this.#open.values()) {
      if (!conversation.asking && matches(conversation)) return conversation;
    }
    return undefined;
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
