import { cleanLine } from '@garuda/mcp-sanitize';

/**
 * Keeps the last lines a server wrote to stderr, for error messages, and its first few: a
 * program that fails often says why first and then prints its whole usage. Memory is bounded
 * however much the server writes: at most `lines` + `headLines` lines of at most `lineChars`
 * characters each, and a line that never ends is cut at `lineChars`.
 */
export class StderrTail {
  readonly #max: number;
  readonly #lineChars: number;
  readonly #headMax: number;
  readonly #lines: string[] = [];
  readonly #head: string[] = [];
  #count = 0;
  #partial = '';
  #cut = false;

  constructor(lines: number, lineChars: number, headLines = 0) {
    this.#max = lines;
    this.#lineChars = lineChars;
    this.#headMax = headLines;
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

  /**
   * The first lines written that are no longer among {@link lines} (none while every line still
   * is), at most `headLines`, oldest first, cleaned like them.
   */
  headLines(): string[] {
    const gone = this.#count - this.#lines.length;
    return this.#head
      .slice(0, Math.max(0, gone))
      .map((l) => cleanLine(l))
      .filter((l) => l !== '');
  }

  #flush(): void {
    this.#count += 1;
    if (this.#head.length < this.#headMax) {
      this.#head.push(this.#partial + (this.#cut ? ' …' : ''));
    }
    this.#lines.push(this.#partial + (this.#cut ? ' …' : ''));
    if (this.#lines.length > this.#max) this.#lines.shift();
    this.#partial = '';
    this.#cut = false;
  }
}
