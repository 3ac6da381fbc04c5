// Shows raw server text without letting it act on the terminal: everything outside printable
// ASCII is written as an escape, and a run of invisible Unicode tag characters is decoded, since
// what it spells is exactly what a model would read and a person would not see.

const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code === 0x1b) return '\\e';
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * The text with every character outside printable ASCII escaped (`\e` for ESC, `\x07`, `\u202e`,
 * …), and each run of tag characters shown as `⟦N tag characters: "…"⟧` with the ASCII they
 * encode. The result is plain printable ASCII apart from the `⟦⟧` brackets.
 *
 * @param text - Raw, untrusted text.
 * @returns A safe, one-line picture of it.
 * @example
 * ```ts
 * visible('\x1b[31mred\x1b[0m'); // '\e[31mred\e[0m'
 * ```
 */
export function visible(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TAG_RUN)) {
    out += escapeAll(text.slice(last, match.index));
    const run = [...match[0]];
    const decoded = run
      .map((ch) => (ch.codePointAt(0) ?? 0) - 0xe0000)
      .filter((code) => code >= 0x20 && code < 0x7f)
      .map((code) => String.fromCharCode(code))
      .join('');
    out += `⟦${run.length} invisible tag characters spelling ${JSON.stringify(decoded)}⟧`;
    last = match.index + match[0].length;
  }
  return out + escapeAll(text.slice(last));
}

function escapeAll(text: string): string {
  let out = '';
  for (const ch of text) out += /^[\x20-\x7e]$/.test(ch) ? ch : escapeChar(ch);
  return out;
}
