import pc from 'picocolors';
import type { CliIo, OutStream } from './io.js';

/** The colour functions the CLI uses; identity functions when colour is off. */
export type Colours = Pick<
  ReturnType<typeof pc.createColors>,
  'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan'
>;

/** Whether to colour `stream`: a terminal, and no `NO_COLOR` (any non-empty value), and not `TERM=dumb`. */
export function wantsColour(stream: OutStream, env: CliIo['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** Without a terminal, the least time between two progress lines of a call, in ms. */
export const PLAIN_PROGRESS_MS = 2000;

const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Where the CLI prints: results on stdout, everything else (progress, notices, questions'
 * context) on stderr, so `--json` output and pipes stay clean. The only code that prints.
 */
export class Output {
  readonly io: CliIo;
  /** Colours for stdout. */
  readonly colour: Colours;
  /** Colours for stderr. */
  readonly errColour: Colours;
  #spinner: { timer: NodeJS.Timeout; text: string; frame: number } | undefined;
  /** A call's progress line is on the terminal (erased before anything else is written). */
  #progressShown = false;
  /** When the last progress line was written without a terminal. */
  #progressWritten = -Infinity;

  constructor(io: CliIo) {
    this.io = io;
    this.colour = pc.createColors(wantsColour(io.stdout, io.env));
    this.errColour = pc.createColors(wantsColour(io.stderr, io.env));
  }

  /** Writes lines to stdout. */
  out(text = ''): void {
    this.#eraseLine();
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Writes lines to stderr. */
  err(text = ''): void {
    this.#eraseLine();
    this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * Shows a progress line on stderr while `work` runs: a spinner on a terminal, one plain line
   * otherwise. Returns what `work` returns.
   */
  async progress<T>(text: string, work: () => Promise<T>): Promise<T> {
    if (this.io.stderr.isTTY !== true) {
      this.err(`${text}…`);
      return work();
    }
    const spinner = { text, frame: 0, timer: setInterval(() => this.#drawSpinner(), 80) };
    spinner.timer.unref();
    this.#spinner = spinner;
    this.#drawSpinner();
    try {
      return await work();
    } finally {
      this.#clearSpinner();
    }
  }

  /**
   * Shows how far a running call is, on stderr: on a terminal one line rewritten in place (erased
   * before anything else is written, and by {@link endProgressLine}); otherwise a line at most
   * every {@link PLAIN_PROGRESS_MS}, so a log file gets a trace, not a flood. `text` must be clean.
   */
  progressLine(text: string): void {
    if (this.io.stderr.isTTY === true) {
      if (this.#spinner !== undefined) return;
      this.io.stderr.write(`\r\x1b[2K${this.errColour.dim(text)}`);
      this.#progressShown = true;
      return;
    }
    const now = Date.now();
    if (now - this.#progressWritten < PLAIN_PROGRESS_MS) return;
    this.#progressWritten = now;
    this.io.stderr.write(`${text}\n`);
  }

  /** Erases the progress line of {@link progressLine}, when one is shown. */
  endProgressLine(): void {
    if (!this.#progressShown) return;
    this.#progressShown = false;
    this.io.stderr.write('\r\x1b[2K');
  }

  /** Runs `work` (a question) with the progress line hidden, and shows it again afterwards. */
  async suspend<T>(work: () => Promise<T>): Promise<T> {
    const spinner = this.#spinner;
    if (spinner === undefined) return work();
    clearInterval(spinner.timer);
    this.io.stderr.write('\r\x1b[2K');
    try {
      return await work();
    } finally {
      if (this.#spinner === spinner) {
        spinner.timer = setInterval(() => this.#drawSpinner(), 80);
        spinner.timer.unref();
      }
    }
  }

  #drawSpinner(): void {
    const spinner = this.#spinner;
    if (spinner === undefined) return;
    const frame = SPINNER_FRAMES[spinner.frame++ % SPINNER_FRAMES.length] ?? '';
    this.io.stderr.write(`\r\x1b[2K${this.errColour.cyan(frame)} ${spinner.text}`);
  }

  /** Erases the progress line (the spinner's is drawn again on its next tick). */
  #eraseLine(): void {
    if (this.#spinner !== undefined) this.io.stderr.write('\r\x1b[2K');
    else this.endProgressLine();
  }

  #clearSpinner(): void {
    const spinner = this.#spinner;
    if (spinner === undefined) return;
    clearInterval(spinner.timer);
    this.#spinner = undefined;
    this.io.stderr.write('\r\x1b[2K');
  }
}
