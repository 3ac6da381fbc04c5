// The demo's prompter. Scripted, it shows each question exactly as the real commands do (the
// same screens from ../format.js) and then the answer it gives itself; interactive, the CLI's own
// terminal prompts ask a person. Either way the manager's notices are part of the story (stdout).
import type {
  CallApprovalRequest,
  ConsentAnswer,
  ConsentRequest,
  Prompter,
  SignInRequest,
} from '@garuda/mcp-manager';
import { formatCallPreview, formatConsent, formatSignIn } from '../../format-questions.js';
import type { Output } from '../../output.js';
import { createPrompter } from '../../prompter.js';

/** How the demo asks, and what the script answers. */
export interface DemoPrompterOptions {
  /** Ask a person through the CLI's terminal prompts instead of answering. */
  readonly interactive: boolean;
  /**
   * Offer to paste the address a browser on another machine ended on (interactive, with a real
   * browser only: the scripted one always comes back by itself).
   */
  readonly paste: boolean;
  /** The scripted answers (used when not interactive). */
  readonly answers: ScriptedAnswers;
  /** Called when the person presses Ctrl-C inside a prompt (the terminal is in raw mode then). */
  readonly onInterrupt?: () => void;
  /** Called with each notice after it is printed (a step may wait for one). */
  readonly onNotice?: (text: string) => void;
}

/** The answers the scripted demo gives. */
export interface ScriptedAnswers {
  /** To "may this project server start?". */
  readonly server: ConsentAnswer;
  /** To "may this server's changed tools be used?". */
  readonly tools: ConsentAnswer;
}

/**
 * Creates the demo's prompter.
 *
 * @param output - Where questions, answers and notices are printed.
 * @param options - See {@link DemoPrompterOptions}.
 * @returns The prompter.
 */
export function createDemoPrompter(output: Output, options: DemoPrompterOptions): Prompter {
  const { interactive, answers } = options;
  const c = output.colour;
  const answered = (answer: string) => output.out(c.cyan(`→ answered: ${answer} (scripted)`));
  const person = interactive
    ? createPrompter(output, {
        interactive: true,
        yes: false,
        trustProject: false,
        ...(options.onInterrupt === undefined ? {} : { onInterrupt: options.onInterrupt }),
      })
    : undefined;

  const prompter: Prompter = {
    async consent(request: ConsentRequest, signal) {
      if (person !== undefined) return person.consent(request, signal);
      output.out(formatConsent(request, c));
      const answer = request.kind === 'tools' ? answers.tools : answers.server;
      answered(answer);
      return answer;
    },
    notice(text) {
      output.out(c.dim(`note: ${text}`));
      options.onNotice?.(text);
    },
    async approveCall(preview: CallApprovalRequest, signal) {
      if (person !== undefined) return person.approveCall(preview, signal);
      output.out(formatCallPreview(preview, c));
      answered('yes');
      return true;
    },
    async signIn(request: SignInRequest, signal) {
      if (person?.signIn !== undefined) return person.signIn(request, signal);
      output.out(formatSignIn(request, c));
      answered('yes');
      return true;
    },
  };
  if (options.paste && person?.pasteRedirect !== undefined) {
    prompter.pasteRedirect = person.pasteRedirect;
  }
  return prompter;
}
