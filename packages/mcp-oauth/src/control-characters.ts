/**
 * Whether `text` holds a C0 or C1 control character (or DEL). Such text could rewrite a
 * terminal line when shown, or split a key, so names, ids and paths with one are refused.
 * @internal
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * Percent-encodes `%`, `:` and control characters, so a project root cannot forge the `::`
 * separators of a key.
 * @internal
 */
export function encodeKeyPart(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out +=
      ch === '%' || ch === ':' || c <= 0x1f || (c >= 0x7f && c <= 0x9f)
        ? `%${c.toString(16).toUpperCase().padStart(2, '0')}`
        : ch;
  }
  return out;
}
