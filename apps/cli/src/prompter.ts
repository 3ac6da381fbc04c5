import { confirm, input, select } from './prompts.js';
import type {
  CallApprovalReply,
  CallApprovalRequest,
  ConsentAnswer,
  ConsentRequest,
  ElicitReply,
  ElicitRequest,
  SignInRequest,
} from '@garuda/mcp-manager';
import { askForm, formatElicitForm, formatElicitUrl } from './elicit-prompt.js';
import { formatCallPreview, formatConsent, formatSignIn } from './format-questions.js';
import { loginCommandLine } from './format.js';
import type { Output } from './output.js';
import type { CliPrompter, DeclinedQuestion, PrompterOptions } from './prompter-types.js';
export type { CliPrompter, DeclinedQuestion, PrompterOptions } from './prompter-types.js';

function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}

/** What each question needs: where to print, how to ask, and how to decline. */
interface Asking {
  readonly output: Output;
  readonly options: PrompterOptions;
  readonly c: Output['errColour'];
  /** The prompt's streams (and the signal that cancels it). */
  readonly context: (signal: AbortSignal | undefined) => PromptContext;
  /** Answers "no" for lack of a terminal, and says which flag would answer. */
  readonly decline: (
    kind: DeclinedQuestion['kind'],
    server: string,
    question: string,
    flag: string,
  ) => void;
  /** Runs a prompt when the terminal is free; Ctrl-C inside it interrupts the whole command. */
  readonly ask: <T>(prompt: () => Promise<T>, fallback: T) => Promise<T>;
}

type PromptContext = {
  input: Output['io']['stdin'];
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
};

/** Consent for a server (or its changed tools). */
async function consent(
  { output, options, c, context, decline, ask }: Asking,
  request: ConsentRequest,
  signal?: AbortSignal,
): Promise<ConsentAnswer> {
  output.err(formatConsent(request, c));
  const what =
    request.kind === 'tools'
      ? `the changed tools of MCP server "${request.server}"`
      : `MCP server "${request.server}" from the ${request.source} file`;
  if (options.trustProject && request.source === 'project') {
    output.err(c.dim(`→ allowed for this run (--trust-project)`));
    return 'once';
  }
  if (!options.interactive) {
    decline(
      'consent',
      request.server,
      `allow ${what}`,
      'pass --trust-project to allow project servers for this run',
    );
    return 'deny';
  }
  return ask(
    () =>
      select<ConsentAnswer>(
        {
          message: `Allow ${what}?`,
          choices: [
            { name: 'Yes, this time', value: 'once' },
            { name: 'Yes, and remember it', value: 'remember' },
            { name: 'No', value: 'deny' },
          ],
          default: 'deny',
        },
        context(signal),
      ),
    'deny',
  );
}

/** Approval of one call. */
async function approveCall(
  { output, options, c, context, decline, ask }: Asking,
  preview: CallApprovalRequest,
  signal?: AbortSignal,
): Promise<CallApprovalReply> {
  output.err(formatCallPreview(preview, c));
  if (options.yes) {
    output.err(c.dim('→ approved (--yes)'));
    return true;
  }
  if (!options.interactive) {
    decline(
      'call',
      preview.server,
      `run tool "${preview.name}"`,
      'pass --yes to approve tool calls',
    );
    return false;
  }
  if (!preview.remember) {
    return ask(() => confirm({ message: 'Run it?', default: false }, context(signal)), false);
  }
  return ask(
    () =>
      select<CallApprovalReply>(
        {
          message: 'Run it?',
          choices: [
            { name: 'Yes, this time', value: true },
            {
              name: `Yes, and always allow ${preview.server}/${preview.tool} (until its schema or your declaration changes)`,
              value: 'always',
            },
            { name: 'No', value: false },
          ],
          default: false,
        },
        context(signal),
      ),
    false,
  );
}

/** Whether to sign in now. */
async function signIn(
  { output, options, c, context, decline, ask }: Asking,
  request: SignInRequest,
  signal?: AbortSignal,
): Promise<boolean> {
  output.err(formatSignIn(request, c));
  if (options.signIn === true) return true;
  if (!options.interactive) {
    decline(
      'sign-in',
      request.server,
      `sign in to MCP server "${request.server}"`,
      `run ${loginCommandLine(request.server, request.addedScopes)} on a terminal`,
    );
    return false;
  }
  return ask(() => confirm({ message: 'Sign in now?', default: true }, context(signal)), false);
}

/** A server's own question: a page to open or a form to answer. */
async function elicit(
  { output, options, c, context, decline, ask }: Asking,
  request: ElicitRequest,
  signal?: AbortSignal,
): Promise<ElicitReply> {
  const declineUnasked = (question: string): ElicitReply => {
    decline('elicit', request.server, question, 'run the command on a terminal to answer it');
    return { action: 'decline' };
  };
  if (request.mode === 'url') {
    output.err(formatElicitUrl(request, c));
    if (!options.interactive) {
      return declineUnasked(`open the page MCP server "${request.server}" asks for`);
    }
    const open = await ask(
      () => confirm({ message: 'Open it in your browser?', default: false }, context(signal)),
      false,
    );
    return open ? { action: 'accept' } : { action: 'decline' };
  }
  output.err(formatElicitForm(request, request.defaults, c));
  if (options.acceptDefaults === true) {
    const problems = request.check(request.defaults);
    if (problems.length === 0) {
      output.err(c.dim('→ answered with its defaults (--accept-defaults)'));
      return { action: 'accept', values: request.defaults };
    }
    output.err(
      c.yellow(
        `Declined: the defaults of the form of MCP server "${request.server}" do not answer it (${problems.join('; ')}).`,
      ),
    );
    return { action: 'decline' };
  }
  if (!options.interactive) {
    return declineUnasked(`answer the form of MCP server "${request.server}"`);
  }
  return ask(() => askForm(request, (text) => output.err(text), c, context(signal)), {
    action: 'cancel',
  } as ElicitReply);
}

/**
 * The CLI's {@link Prompter}. On a terminal, real prompts (consent: once / remember / deny; call
 * approval; sign-in with an optional pasted address); the context of each question is printed
 * first, in full, on stderr. Without a terminal, each question is answered "no" unless a flag
 * answers it, and the refusal is printed with the flag that would answer it.
 */
export function createPrompter(output: Output, options: PrompterOptions): CliPrompter {
  const c = output.errColour;
  const declined: DeclinedQuestion[] = [];
  const context = (signal: AbortSignal | undefined): PromptContext => ({
    input: output.io.stdin,
    output: output.io.stderr as unknown as NodeJS.WritableStream,
    ...(signal === undefined ? {} : { signal }),
  });
  const decline = (
    kind: DeclinedQuestion['kind'],
    server: string,
    question: string,
    flag: string,
  ): void => {
    declined.push({ kind, server, question, flag });
    output.err(c.yellow(`Declined: ${question} (no terminal to ask; ${flag}).`));
  };
  // One prompt on the terminal at a time: the manager asks its questions one by one, but the
  // paste prompt of a sign-in waits beside them, and two prompts would share the screen.
  let turn: Promise<unknown> = Promise.resolve();
  /** Runs a prompt when the terminal is free; Ctrl-C inside it interrupts the whole command. */
  async function ask<T>(prompt: () => Promise<T>, fallback: T): Promise<T> {
    const previous = turn;
    let done = () => {};
    turn = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      return await output.suspend(prompt);
    } catch (error) {
      if (isPromptExit(error)) options.onInterrupt?.();
      if (error instanceof Error && error.name === 'AbortPromptError') throw error;
      if (isPromptExit(error)) throw error;
      return fallback;
    } finally {
      done();
    }
  }

  const asking: Asking = { output, options, c, context, decline, ask };
  const prompter: CliPrompter = {
    declined,
    consent: (request, signal) => consent(asking, request, signal),
    notice(text: string): void {
      if (options.skipNotice?.(text) === true) return;
      output.err(c.dim(`note: ${text}`));
    },
    approveCall: (preview, signal) => approveCall(asking, preview, signal),
    signIn: (request, signal) => signIn(asking, request, signal),
    elicit: (request, signal) => elicit(asking, request, signal),
  };
  if (options.interactive) {
    prompter.pasteRedirect = async (request: SignInRequest, signal?: AbortSignal) => {
      const text = await ask(
        () =>
          input(
            {
              message:
                'Waiting for the browser. If it runs on another machine, paste the address it ended on:',
            },
            context(signal),
          ),
        '',
      );
      return text.trim() === '' ? undefined : text;
    };
  }
  return prompter;
}
