import type { MessageKind } from './errors.js';

/** What {@link MessageKindScanner} found out about one line. */
export interface MessageShape {
  /** What the line was, as far as its top-level keys tell. */
  readonly kind: MessageKind;
  /** The top-level `id`, when it is a string or a number (and the object was complete). */
  readonly id: string | number | undefined;
}

// The longest key kept, in raw bytes: room for `method` with every letter escaped (`\u006d…`,
// 36 bytes). A longer key cannot be `method` or `id`.
const KEY_CAP = 64;
// The longest `id` value kept, in raw bytes. A longer one is reported as undefined.
const ID_CAP = 128;

// States of the top level. Only the top-level object is followed key by key; a nested value is
// skipped by counting brackets outside strings.
const BEFORE = 0; // before the first byte that is not whitespace
const KEY_OR_END = 1; // just after `{`: a key or `}`
const KEY = 2; // after `,`: a key
const IN_KEY = 3;
const COLON = 4;
const VALUE = 5;
const IN_STRING = 6; // a string value of the top level
const IN_PRIMITIVE = 7; // a number, true, false or null of the top level
const NESTED = 8; // inside an object or array value
const COMMA_OR_END = 9;
const AFTER = 10; // after the closing `}`: only whitespace may follow
const INVALID = 11; // not an object, or broken at the top level: the kind is unknown

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// JSON's whitespace. A newline never reaches the scanner (it ends the line).
function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

// The bytes a number or a literal (true, false, null) is made of.
function isPrimitiveByte(b: number): boolean {
  return (
    (b >= 0x30 && b <= 0x39) || // 0-9
    (b >= 0x61 && b <= 0x7a) || // a-z
    (b >= 0x41 && b <= 0x5a) || // A-Z
    b === 0x2b || // +
    b === 0x2d || // -
    b === 0x2e // .
  );
}

function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

/**
 * Tells from a JSON-RPC line seen one chunk at a time whether it was a response, a request or
 * a notification, and its `id`, with bounded memory: the line itself is never kept. Used for a
 * line too large to read, so that the client learns whether it may have been the answer to a
 * call. @internal
 *
 * Written by hand: a streaming JSON parser keeps the values it parses (here several MiB of a
 * server's text), and partial-JSON parsers re-parse a growing buffer. All this needs is the
 * depth, whether it is inside a string (and after a backslash), the current top-level key (at
 * most {@link KEY_CAP} bytes) and the top-level `id` value (at most {@link ID_CAP} bytes).
 *
 * The line is untrusted, so:
 * - keys count in any order and with any whitespace around them, and only at the top level (a
 *   `"method"` inside `result` is nested: it does not count);
 * - a key with escapes is decoded in full (`JSON.parse` of the short key), as the SDK would see
 *   it: `"\u006dethod"` is `method`; a key that does not decode makes the line `unknown`;
 * - a repeated key counts once for presence, and the last `id` wins, as with `JSON.parse`;
 * - a line that is not one object, or whose top level is broken or unfinished (it ended early),
 *   is `unknown` and gets no `id`. Nested values are not checked: the top level alone decides.
 *
 * The SDK's message schemas are strict, so a line with a top-level `method` is never a valid
 * response, and one without it never a valid request or notification.
 */
export class MessageKindScanner {
  #state = BEFORE;
  // Inside NESTED: the depth (the top-level object is 1), and the string state there.
  #depth = 0;
  #nestedString = false;
  // After a backslash inside any string (key, top-level string value, nested string).
  #escape = false;

  readonly #key = Buffer.alloc(KEY_CAP);
  #keyLength = 0;
  #keyTooLong = false;
  // What the value being read belongs to.
  #valueOf: 'method' | 'id' | 'other' = 'other';

  readonly #value = Buffer.alloc(ID_CAP);
  #valueLength = 0;
  #valueTooLong = false;

  #hasMethod = false;
  #hasId = false;
  #id: string | number | undefined;

  /**
   * Feeds the next bytes of the line (without its line break).
   *
   * @param chunk - Any part of the line; a key, a number or a character may be split anywhere.
   */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    // The next quote and backslash at or after `i` (n: none), looked up again only once passed,
    // so each chunk is searched at most twice whatever its content.
    let quote = -1;
    let backslash = -1;
    for (let i = 0; i < n; i++) {
      if (this.#state === INVALID) return;
      if (this.#inPlainText()) {
        // Most of a huge line is the text of one string: only its end or a backslash matters.
        if (quote < i) quote = indexOrEnd(chunk, QUOTE, i);
        if (backslash < i) backslash = indexOrEnd(chunk, BACKSLASH, i);
        i = Math.min(quote, backslash);
        if (i === n) return;
      }
      this.#step(chunk[i] as number);
    }
  }

  /**
   * The line has ended.
   *
   * @returns What it was: `request` (a `method` and an `id`), `notification` (a `method`, no
   *   `id`), `response` (an `id`, no `method`), else `unknown`.
   */
  finish(): MessageShape {
    // An unfinished line (the stream ended inside it) tells nothing, like a broken one.
    if (this.#state !== AFTER) return { kind: 'unknown', id: undefined };
    const kind: MessageKind = this.#hasMethod
      ? this.#hasId
        ? 'request'
        : 'notification'
      : this.#hasId
        ? 'response'
        : 'unknown';
    return { kind, id: this.#id };
  }

  // Inside a string whose bytes are not kept, not just after a backslash.
  #inPlainText(): boolean {
    if (this.#escape) return false;
    if (this.#state === NESTED) return this.#nestedString;
    return this.#state === IN_STRING && this.#valueOf !== 'id';
  }

  #step(b: number): void {
    switch (this.#state) {
      case BEFORE:
        if (b === 0x7b) this.#state = KEY_OR_END;
        else if (!isSpace(b)) this.#state = INVALID;
        return;
      case KEY_OR_END:
      case KEY:
        if (b === QUOTE) {
          this.#keyLength = 0;
          this.#keyTooLong = false;
          this.#state = IN_KEY;
        } else if (b === 0x7d && this.#state === KEY_OR_END) this.#state = AFTER;
        else if (!isSpace(b)) this.#state = INVALID;
        return;
      case IN_KEY:
        if (!this.#escape && b === QUOTE) {
          this.#endKey();
          return;
        }
        this.#escape = !this.#escape && b === BACKSLASH;
        if (this.#keyLength < KEY_CAP) this.#key[this.#keyLength++] = b;
        else this.#keyTooLong = true;
        return;
      case COLON:
        if (b === 0x3a) this.#state = VALUE;
        else if (!isSpace(b)) this.#state = INVALID;
        return;
      case VALUE:
        this.#startValue(b);
        return;
      case IN_STRING:
        if (!this.#escape && b === QUOTE) {
          this.#endValue(true);
          return;
        }
        this.#escape = !this.#escape && b === BACKSLASH;
        this.#capture(b);
        return;
      case IN_PRIMITIVE:
        if (isPrimitiveByte(b)) {
          this.#capture(b);
          return;
        }
        // The byte after a number (`,`, `}` or whitespace) belongs to the top level.
        if (this.#endValue(false)) this.#step(b);
        return;
      case NESTED:
        this.#nested(b);
        return;
      case COMMA_OR_END:
        if (b === 0x2c) this.#state = KEY;
        else if (b === 0x7d) this.#state = AFTER;
        else if (!isSpace(b)) this.#state = INVALID;
        return;
      case AFTER:
        if (!isSpace(b)) this.#state = INVALID;
        return;
    }
  }

  #endKey(): void {
    let key: unknown;
    if (!this.#keyTooLong) {
      try {
        // Decodes every escape, and refuses what JSON does (a raw control character, `\x`).
        key = JSON.parse(`"${this.#key.toString('utf8', 0, this.#keyLength)}"`);
      } catch {
        this.#state = INVALID;
        return;
      }
    }
    this.#valueOf = key === 'method' ? 'method' : key === 'id' ? 'id' : 'other';
    this.#state = COLON;
  }

  #startValue(b: number): void {
    if (isSpace(b)) return;
    this.#valueLength = 0;
    this.#valueTooLong = false;
    if (this.#valueOf === 'method') this.#hasMethod = true;
    if (this.#valueOf === 'id') {
      this.#hasId = true;
      // The last `id` wins; one that is not a string or a number stays undefined.
      this.#id = undefined;
    }
    if (b === QUOTE) {
      this.#state = IN_STRING;
    } else if (b === 0x7b || b === 0x5b) {
      this.#depth = 2;
      this.#nestedString = false;
      this.#state = NESTED;
    } else if (isPrimitiveByte(b)) {
      this.#capture(b);
      this.#state = IN_PRIMITIVE;
    } else {
      this.#state = INVALID;
    }
  }

  #capture(b: number): void {
    if (this.#valueOf !== 'id') return;
    if (this.#valueLength < ID_CAP) this.#value[this.#valueLength++] = b;
    else this.#valueTooLong = true;
  }

  /** The end of a top-level string (`quoted`) or primitive value; `false` if it was broken. */
  #endValue(quoted: boolean): boolean {
    this.#state = COMMA_OR_END;
    if (this.#valueOf !== 'id' || this.#valueTooLong) return true;
    const raw = this.#value.toString('utf8', 0, this.#valueLength);
    let value: unknown;
    try {
      value = JSON.parse(quoted ? `"${raw}"` : raw);
    } catch {
      // Not JSON (e.g. `tru` or `01`): the whole line is not, so nobody could have read it.
      this.#state = INVALID;
      return false;
    }
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      this.#id = value;
    }
    return true;
  }

  #nested(b: number): void {
    if (this.#nestedString) {
      if (this.#escape) this.#escape = false;
      else if (b === BACKSLASH) this.#escape = true;
      else if (b === QUOTE) this.#nestedString = false;
      return;
    }
    if (b === QUOTE) this.#nestedString = true;
    else if (b === 0x7b || b === 0x5b) this.#depth++;
    else if (b === 0x7d || b === 0x5d) {
      if (--this.#depth === 1) this.#state = COMMA_OR_END;
    }
  }
}
