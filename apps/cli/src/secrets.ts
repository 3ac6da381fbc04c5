// How `get` hides secrets, and the written-out-secret check of `add`, on the one "does this
// look like a secret?" pair of @garuda/mcp-config (the import uses the same).
import { looksSecretName, looksSecretValue } from '@garuda/mcp-config';

/** What a hidden value is shown as (always the same, so its length is not told either). */
export const MASK = '****';

const LONG_TOKENS = /[A-Za-z0-9_\-.]{24,}/g;
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** A value that looks like a secret written out instead of taken from `${NAME}`. */
export function looksLiteralSecret(value: string): boolean {
  return !value.includes('${') && looksSecretValue(value);
}

/**
 * An env or header value as `get` shows it. A value written out in the file is hidden when its
 * name or the value itself looks secret. A `${NAME}` is shown as written (it is no secret, only
 * where one comes from); only a long token written beside one is hidden (`abc${X}` stays).
 *
 * @returns The text to show, and whether anything was hidden.
 */
export function maskValue(name: string, value: string): { text: string; masked: boolean } {
  if (!REFERENCE.test(value)) {
    const secret = value !== '' && (looksSecretName(name) || looksLiteralSecret(value));
    return secret ? { text: MASK, masked: true } : { text: value, masked: false };
  }
  let masked = false;
  const text = value
    .split(/(\$\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) => {
      if (REFERENCE.test(part) || !looksSecretValue(part)) return part;
      masked = true;
      return part.replace(LONG_TOKENS, MASK);
    })
    .join('');
  return { text, masked };
}
