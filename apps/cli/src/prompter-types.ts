import type { Prompter } from '@garuda/mcp-manager';

/** How the CLI answers questions. */
export interface PrompterOptions {
  /** Ask a person (stdin and stderr are terminals). Otherwise every question is answered by flags. */
  readonly interactive: boolean;
  /** `--yes`: approve tool calls without asking. */
  readonly yes: boolean;
  /** `--trust-project`: allow a project's servers (and their changed tools) for this run. */
  readonly trustProject: boolean;
  /**
   * `--accept-defaults`: answer a server's form with its defaults, when they answer every
   * required field (the rest is declined). Pages are never opened by a flag.
   */
  readonly acceptDefaults?: boolean;
  /** Answer the sign-in question with yes (the `login` command). */
  readonly signIn?: boolean;
  /** Called when the person presses Ctrl-C inside a prompt (the terminal is in raw mode then). */
  readonly onInterrupt?: () => void;
  /** Notices not to print (they repeat what this run has said already). */
  readonly skipNotice?: (text: string) => boolean;
}

/** One question the CLI answered "no" because nobody could be asked, and the flag that would answer it. */
export interface DeclinedQuestion {
  /**
   * What was asked: consent for a server (or its changed tools), a sign-in, a call, or a
   * server's own question (a form or a page: elicitation).
   */
  readonly kind: 'consent' | 'sign-in' | 'call' | 'elicit';
  /** The server it was about. */
  readonly server: string;
  readonly question: string;
  readonly flag: string;
}

/** The manager's prompter, plus what was declined for lack of a terminal. */
export interface CliPrompter extends Prompter {
  readonly declined: readonly DeclinedQuestion[];
}
