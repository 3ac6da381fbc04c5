// Elicitation: a server asks the user to fill in a form or to open a page. Declared to servers
// only when the host's prompter has `elicit`; each question is bounded (a few per request of
// ours, a few more per minute, none outside a request: elicit-budget.ts), belongs to the
// requests that were running when it came and is closed when they have all settled, goes through
// the one question queue (giving way to consent and approvals that wait behind it), is cleaned
// before the prompter shows it, and is answered only with what the user chose: a form's
// answers are checked against its schema before they are sent, and a page is never fetched and is
// opened only after the user said yes, through the one URL policy and the sign-in page's opener.
// The 2026-07-28 revision's `input_required` results reach the same handler (the SDK fulfils them
// through it), so both revisions ask the same way.
import { isRecord, log } from '@garuda/internal';
import { checkUrl } from '@garuda/mcp-sanitize';
import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type ClientCapabilities,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { CallFailedError } from '../errors.js';
import { linkSignals, raceAbort, type QuestionQueue } from '../common/abort.js';
import type { ElicitBudget, OpenRequest } from './elicit-budget.js';
import { answerProblems, defaultValues, formFields, wireValues } from './elicit-form.js';
import type {
  ElicitFormRequest,
  ElicitReply,
  ElicitRequest,
  ElicitUrlRequest,
} from './elicit-types.js';
import { forPrompter, messageOf, oneLine } from '../common/text.js';
import type { ManagerLogger, Prompter } from '../types.js';

/** How long one elicitation may wait for the user before it is cancelled, in ms. */
export const ELICIT_TIMEOUT_MS = 10 * 60_000;

/** The most pages of one "open these first" error (`-32042`) that the user is asked about. */
const MAX_PAGES_FIRST = 3;

/** The longest message of an elicitation shown, in code points. */
const MAX_MESSAGE_CHARS = 2000;

/** What the manager lends elicitation, once. @internal */
export interface ElicitationDeps {
  readonly prompter: Prompter;
  readonly questions: QuestionQueue;
  /** Opens an accepted page (the sign-in page's opener: `false` or a throw when it could not). */
  readonly openBrowser: (url: string, options: { readonly allowHttpLoopback: boolean }) => unknown;
  readonly notice: (text: string) => void;
  readonly logger: ManagerLogger | undefined;
  /** How many questions each server may ask. */
  readonly budget: ElicitBudget;
}

/** What a connection tells the handler it installs. @internal */
export interface ConnectionHooks {
  /** The user starts (`1`) or stops (`-1`) answering a question: the requests' clocks pause. */
  readonly asking: (delta: 1 | -1) => void;
  /** The requests of ours in flight now. */
  readonly open: () => readonly OpenRequest[];
}

/** The server an elicitation comes from. @internal */
export interface AskingServer {
  readonly name: string;
  /** Its policy's: `http:` on this computer may be opened (a user's server only). */
  readonly allowHttpLoopback: boolean;
  /** A remote server's URL. */
  readonly url?: URL;
}

/** What a connection declares and installs to answer a server's questions. @internal */
export interface ServerAnswers {
  readonly capabilities: ClientCapabilities;
  /**
   * Registers the handlers on the client, before it connects; `hooks` tell when the user starts
   * and stops answering one (the connection pauses its requests' clocks) and which requests are
   * in flight.
   */
  install(client: Client, lifetime: AbortSignal, hooks: ConnectionHooks): void;
  /**
   * A call the server refused until the user finishes on a page (`-32042`, 2025 revisions):
   * asks about each page as a URL elicitation, then returns the call's error saying what
   * happened and to call again; `undefined` for any other failure.
   */
  pagesFirst(tool: string, cause: unknown, lifetime: AbortSignal): Promise<Error | undefined>;
}

/**
 * Whether `host` is `base` or one of its subdomains, or the other way round. Without a list of
 * public suffixes this errs towards a warning (`auth.example.com` beside `api.example.com` is
 * "another domain"), never towards silence. @internal
 */
export function sameSite(host: string, base: string): boolean {
  const a = host.toLowerCase();
  const b = base.toLowerCase();
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

function messageText(text: unknown): string {
  return typeof text === 'string' ? oneLine(text, MAX_MESSAGE_CHARS) : '';
}

/**
 * How a server's elicitations are answered, or `undefined` when the host cannot ask (its
 * prompter has no `elicit`): then nothing is declared and a request is refused as not offered.
 * @internal
 *
 * @param deps - The prompter, the question queue, the opener.
 * @param server - The server that will ask.
 * @returns The capability and the handler's installer.
 */
export function elicitationAnswers(
  deps: ElicitationDeps,
  server: AskingServer,
): ServerAnswers | undefined {
  const { prompter } = deps;
  if (typeof prompter.elicit !== 'function') return undefined;
  const { allowHttpLoopback } = server;
  const quoted = `MCP server "${server.name}"`;

  const ask = async (request: ElicitRequest, signal: AbortSignal): Promise<ElicitReply> => {
    let gaveWay = false;
    try {
      const reply = await deps.questions.ask(
        async (giveWay) => {
          // The prompter gets one signal for every reason to close the form; a prompter that
          // does not heed it still loses the question's turn.
          const { controller, detach } = linkSignals(signal, giveWay);
          const onGiveWay = () => (gaveWay = true);
          giveWay.addEventListener('abort', onGiveWay, { once: true });
          try {
            return await raceAbort(
              Promise.resolve(prompter.elicit?.(forPrompter(request), controller.signal)),
              controller.signal,
            );
          } finally {
            giveWay.removeEventListener('abort', onGiveWay);
            detach();
          }
        },
        signal,
        'form',
      );
      if (
        typeof reply === 'object' &&
        reply !== null &&
        (reply.action === 'accept' || reply.action === 'decline' || reply.action === 'cancel')
      ) {
        return reply;
      }
      return { action: 'decline' };
    } catch (error) {
      if (gaveWay) {
        deps.notice(
          `The question of ${quoted} was closed unanswered: other questions were waiting behind it. ` +
            'The server was told it was cancelled and may ask again.',
        );
      }
      log(
        deps.logger,
        'debug',
        `${quoted}: its question was not answered (${oneLine(messageOf(error))})`,
      );
      return { action: 'cancel' };
    }
  };

  const form = async (
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ElicitResult> => {
    const plan = formFields(params.requestedSchema);
    if (!plan.ok) {
      deps.notice(`${quoted} asked you to fill in a form, which was declined: ${plan.reason}.`);
      return { action: 'decline' };
    }
    const request: ElicitFormRequest = {
      mode: 'form',
      server: server.name,
      message: messageText(params.message),
      fields: plan.value.fields,
      defaults: defaultValues(plan.value),
      check: (values) => answerProblems(plan.value, values),
    };
    const reply = await ask(request, signal);
    if (reply.action !== 'accept') return { action: reply.action };
    const values = reply.values ?? request.defaults;
    const problems = answerProblems(plan.value, values);
    if (problems.length > 0) {
      deps.notice(
        `Your answer to the form of ${quoted} was not sent (it was declined): ${problems.join('; ')}.`,
      );
      return { action: 'decline' };
    }
    return { action: 'accept', content: wireValues(plan.value, values) };
  };

  const page = async (
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ElicitResult> => {
    const checked = checkUrl(params.url, {
      use: 'open',
      what: 'the page it asks you to open',
      allowHttpLoopback,
    });
    if (!checked.ok) {
      deps.notice(`${quoted} asked you to open a page, which was declined: ${checked.reason}.`);
      return { action: 'decline' };
    }
    const serverHost = server.url?.hostname;
    const request: ElicitUrlRequest = {
      mode: 'url',
      server: server.name,
      message: messageText(params.message),
      url: checked.shown,
      host: checked.host,
      punycode: checked.punycode,
      ...(serverHost === undefined ? {} : { serverHost }),
      otherDomain: serverHost !== undefined && !sameSite(checked.url.hostname, serverHost),
    };
    const reply = await ask(request, signal);
    if (reply.action !== 'accept') return { action: reply.action };
    let opened = false;
    try {
      opened = (await deps.openBrowser(checked.url.href, { allowHttpLoopback })) !== false;
    } catch (error) {
      log(deps.logger, 'debug', `${quoted}: the page did not open (${oneLine(messageOf(error))})`);
    }
    if (!opened) deps.notice(`Open this page yourself for ${quoted}: ${checked.shown}`);
    return { action: 'accept' };
  };

  const pagesFirst = async (
    tool: string,
    cause: unknown,
    lifetime: AbortSignal,
  ): Promise<Error | undefined> => {
    if (!(cause instanceof ProtocolError)) return undefined;
    if (cause.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined;
    const data: unknown = cause.data;
    const pages =
      isRecord(data) && Array.isArray(data.elicitations)
        ? data.elicitations.filter(isRecord).slice(0, MAX_PAGES_FIRST)
        : [];
    let opened = 0;
    for (const params of pages) {
      const { controller, detach } = linkSignals(lifetime, AbortSignal.timeout(ELICIT_TIMEOUT_MS));
      try {
        if ((await page(params, controller.signal)).action === 'accept') opened++;
      } finally {
        detach();
      }
    }
    const what = pages.length === 1 ? 'a page' : `${pages.length} pages`;
    const reason =
      pages.length === 0
        ? `${quoted} needs you to finish on a page first, but named none that could be shown`
        : opened === pages.length
          ? `${quoted} needs you to finish on ${what} first (opened): call the tool again once you are done`
          : `${quoted} needs you to finish on ${what} first, and ${opened === 0 ? 'none was' : `only ${opened} was`} opened`;
    return new CallFailedError(tool, reason, { cause });
  };

  return {
    pagesFirst,
    capabilities: { elicitation: { form: {}, url: {} } },
    install(client, lifetime, hooks) {
      client.setRequestHandler('elicitation/create', async (request, ctx) => {
        const owners = hooks.open();
        const admitted = deps.budget.admit(server.name, owners);
        if (!admitted.ok) {
          if (admitted.tell) deps.notice(admitted.notice);
          return { action: 'decline' };
        }
        hooks.asking(1);
        const params = request.params as Record<string, unknown>;
        const ended = whenAllSettled(owners);
        const { controller, detach } = linkSignals(
          ctx.mcpReq.signal,
          lifetime,
          ended.signal,
          AbortSignal.timeout(ELICIT_TIMEOUT_MS),
        );
        try {
          return params.mode === 'url'
            ? await page(params, controller.signal)
            : await form(params, controller.signal);
        } finally {
          detach();
          ended.detach();
          hooks.asking(-1);
        }
      });
    },
  };
}

/**
 * A signal that aborts once every one of `requests` has settled: a question closes with the
 * requests it came during (their end, abort or time limit), whichever of them it belongs to.
 */
function whenAllSettled(requests: readonly OpenRequest[]): {
  readonly signal: AbortSignal;
  readonly detach: () => void;
} {
  const controller = new AbortController();
  let left = requests.length;
  const onSettled = () => {
    left -= 1;
    if (left === 0) controller.abort(new Error('the request it came during has ended'));
  };
  for (const request of requests) {
    if (request.settled.aborted) onSettled();
    else request.settled.addEventListener('abort', onSettled, { once: true });
  }
  return {
    signal: controller.signal,
    detach: () => {
      for (const request of requests) request.settled.removeEventListener('abort', onSettled);
    },
  };
}
