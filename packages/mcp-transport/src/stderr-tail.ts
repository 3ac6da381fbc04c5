import { cleanLine } from '@garuda/mcp-sanitize';

/**
 * Keeps the last lines a server wrote to stderr, for error messages. Memory is bounded however
 * much the server writes: at most `lines` lines of at most `lineChars` characters each, and a
 * line that never ends is cut at `lineChars`.
 */
export class StderrTail {
  readonly #max: number;
  readonly #lineChars: number;
  readonly #lines: string[] = [];
  #partial = '';
  #cut = false;

  constructor(lines: number, lineChars: number) {
    this.#max = lines;
    this.#lineChars = lineChars;
  }

  /** Feeds a chunk of stderr text. */
  push(text: string): void {
    let start = 0;
    while (start <= text.length) {
      const nl = text.indexOf('\n', start);
      const piece = text.slice(start, nl === -1 ? text.length : nl);
      if (!this.#cut) {
        const room = this.#lineChars - this.#partial.length;
        if (piece.length > room) {
          this.#partial += piece.slice(0, room);
          this.#cut = true;
        } else {
          this.#partial += piece;
        }
      }
      if (nl === -1) return;
      this.#flush();
      start = nl + 1;
    }
  }

  /** The stream ended. */
  end(): void {
    if (this.#partial !== '' || this.#cut) this.#flush();
  }

  /** The kept lines, oldest first, cleaned so they are safe to show (one line each). */
  lines(): string[] {
    const out = this.#lines.map((l) => cleanLine(l));
    if (this.#partial !== '') out.push(cleanLine(this.#partial) + (this.#cut ? ' …' : ''));
    return out.filter((l) => l !== '').slice(-this.#max);
  }

  #flush(): void {
    this.#lines.push(this.#partial + (this.#cut ? ' …' : ''));
    if (this.#lines.length > this.#max) this.#lines.shift();
    this.#partial = '';
    this.#cut = false;
  }
}
