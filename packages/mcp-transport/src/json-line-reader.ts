import { MessageKindScanner, type MessageShape } from './message-kind-scanner.js';

const NEWLINE = 0x0a;

/** What {@link JsonLineReader} hands out. */
export interface JsonLineReaderHandlers {
  /** A complete line (without its line break), at most `maxBytes` long. */
  onLine(line: string): void;
  /**
   * A line longer than `maxBytes`, once it has ended: its start (for an error message), its
   * length, and what it was, read from all of it as it streamed by (it is not kept).
   */
  onOversized(excerpt: string, bytesSeen: number, shape: MessageShape): void;
}

/**
 * Splits a byte stream into newline-delimited lines with a cap per line.
 *
 * Written by hand rather than with the SDK's `ReadBuffer`: that one caps only the whole buffer,
 * silently drops lines that are not JSON, and concatenates on every chunk. Here a line over the
 * cap is reported once and skipped up to its end while reading goes on, memory stays bounded by
 * the cap, and every chunk is scanned once (an oversized line twice: for its end, and by a
 * {@link MessageKindScanner} for what it was).
 */
export class JsonLineReader {
  readonly #maxBytes: number;
  readonly #handlers: JsonLineReaderHandlers;
  #parts: Buffer[] = [];
  #size = 0;
  // Inside an oversized line: drop bytes until the next newline.
  #skipping = false;
  #skipped = 0;
  #pendingExcerpt = '';
  #scanner: MessageKindScanner | undefined;

  constructor(maxBytes: number, handlers: JsonLineReaderHandlers) {
    this.#maxBytes = maxBytes;
    this.#handlers = handlers;
  }

  /** Feeds one chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      this.#take(chunk.subarray(start, end));
      if (nl === -1) return;
      this.#finishLine();
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a line break still counts. */
  end(): void {
    if (this.#size > 0 || this.#skipping) this.#finishLine();
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#skipping) {
      this.#skipped += piece.length;
      this.#scanner?.push(piece);
      return;
    }
    if (this.#size + piece.length > this.#maxBytes) {
      const head = Buffer.concat([...this.#parts, piece.subarray(0, 200)]).subarray(0, 200);
      const scanner = new MessageKindScanner();
      for (const part of this.#parts) scanner.push(part);
      scanner.push(piece);
      this.#scanner = scanner;
      this.#skipped = this.#size + piece.length;
      this.#parts = [];
      this.#size = 0;
      this.#skipping = true;
      this.#pendingExcerpt = head.toString('utf8');
      return;
    }
    this.#parts.push(piece);
    this.#size += piece.length;
  }

  #finishLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      const excerpt = this.#pendingExcerpt;
      const seen = this.#skipped;
      const shape: MessageShape = this.#scanner?.finish() ?? { kind: 'unknown', id: undefined };
      this.#pendingExcerpt = '';
      this.#skipped = 0;
      this.#scanner = undefined;
      this.#handlers.onOversized(excerpt, seen, shape);
      return;
    }
    const buf = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
    this.#parts = [];
    this.#size = 0;
    let line = buf.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.#handlers.onLine(line);
  }
}
