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

  /** Erases the progress line (it is drawn again on its next tick). */
  #eraseLine(): void {
    if (this.#spinner !== undefined) this.io.stderr.write('\r\x1b[2K');
  }

  #clearSpinner(): void {
    const spinner = this.#spinner;
    if (spinner === undefined) return;
    clearInterval(spinner.timer);
    this.#spinner = undefined;
    this.io.stderr.write('\r\x1b[2K');
  }
}
