import { kindOf } from '@garuda/internal';
import { invalidKey } from './errors.js';

/** The longest key (and prefix) a {@link TrustStore} accepts, in UTF-16 code units. */
export const MAX_KEY_LENGTH = 1000;

// C0 controls, DEL and C1 controls: a key is shown to people (`trust list`), and a control
// character in it could rewrite their terminal.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Throws unless `key` is a non-empty string of at most {@link MAX_KEY_LENGTH} characters with no
 * control characters.
 * @internal
 */
export function validateKey(key: unknown): asserts key is string {
  validateText(key, 'key');
  if (key.length === 0) throw invalidKey('it is empty: pass a non-empty string');
}

/**
 * Like {@link validateKey}, but the empty string is allowed (it lists every entry).
 * @internal
 */
export function validatePrefix(prefix: unknown): asserts prefix is string {
  validateText(prefix, 'prefix');
}

function validateText(text: unknown, what: string): asserts text is string {
  if (typeof text !== 'string') {
    throw invalidKey(`the ${what} must be a string, got ${kindOf(text)}`);
  }
  if (text.length > MAX_KEY_LENGTH) {
    throw invalidKey(
      `the ${what} has ${text.length} characters, at most ${MAX_KEY_LENGTH} are allowed`,
    );
  }
  const bad = CONTROL.exec(text);
  if (bad) {
    const hex = bad[0].charCodeAt(0).toString(16).padStart(4, '0');
    throw invalidKey(
      `the ${what} holds a control character (U+${hex.toUpperCase()} at index ${bad.index}): ` +
        `remove it`,
    );
  }
}
