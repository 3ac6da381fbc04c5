// Where the tables of a TOML file are, by line, so `install --move` can take a few
// `[mcp_servers.<name>]` tables out and leave every other byte as it was. TOML parsers give no
// positions, and the CLI keeps its dependencies few: this is a scanner of TOML's lexical layer
// only (strings, comments, brackets, table headers), which is all that is needed to know where a
// line is a table header. Whatever it is not sure of, it refuses (undefined), and then nothing is
// removed.

/** What a line of a TOML file is, seen from the top level. */
export type TomlLineKind = 'header' | 'blank' | 'comment' | 'other';

/** One table header: `[a.b]`, or `[[a.b]]` for an array of tables. */
export interface TomlTable {
  /** The keys of the header, quotes and escapes resolved. */
  readonly path: readonly string[];
  readonly array: boolean;
  /** 0-based line of the header. */
  readonly line: number;
}

/** The tables of a TOML file, and what each of its lines is. */
export interface TomlLayout {
  /** Offset where each line starts (lines end at `\n`; a `\r` before it is part of its line). */
  readonly lineStarts: readonly number[];
  /** One per line. A line inside a multi-line string or array is `other`. */
  readonly kinds: readonly TomlLineKind[];
  readonly tables: readonly TomlTable[];
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\u001b',
  '"': '"',
  '\\': '\\',
};

/** A basic string's content (between its quotes) with its escapes resolved, or undefined. */
function unescapeBasic(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] ?? '';
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const size = next === 'u' ? 4 : next === 'U' ? 8 : next === 'x' ? 2 : 0;
    const hex = body.slice(i + 2, i + 2 + size);
    if (size === 0 || !new RegExp(`^[0-9A-Fa-f]{${size}}$`).test(hex)) return undefined;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    out += String.fromCodePoint(code);
    i += 1 + size;
  }
  return out;
}

/** The header starting at `text[at] === '['`: its keys and where it ends, or undefined. */
function parseHeader(
  text: string,
  at: number,
): { path: string[]; array: boolean; end: number } | undefined {
  const array = text[at + 1] === '[';
  let i = at + (array ? 2 : 1);
  const skipSpace = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  const path: string[] = [];
  for (;;) {
    skipSpace();
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      const close = ch === '"' ? /(?:[^"\\\n]|\\[^\n])*"/y : /[^'\n]*'/y;
      close.lastIndex = i + 1;
      const match = close.exec(text);
      if (match === null) return undefined;
      const body = match[0].slice(0, -1);
      const key = ch === '"' ? unescapeBasic(body) : body;
      if (key === undefined) return undefined;
      path.push(key);
      i = close.lastIndex;
    } else {
      const start = i;
      while (i < text.length && BARE_KEY.test(text[i] ?? '')) i++;
      if (i === start) return undefined;
      path.push(text.slice(start, i));
    }
    skipSpace();
    if (text[i] !== '.') break;
    i++;
  }
  if (text[i] !== ']') return undefined;
  i++;
  if (array) {
    if (text[i] !== ']') return undefined;
    i++;
  }
  return { path, array, end: i };
}

/**
 * The tables of a TOML file and the kind of each line, or undefined when the text is not TOML
 * this scanner can follow with certainty (an unclosed string or bracket, a header it cannot
 * read, text after a header).
 *
 * @param text - The file's text.
 * @returns The layout, or undefined.
 */
export function tomlLayout(text: string): TomlLayout | undefined {
  const n = text.length;
  const lineStarts = [0];
  const kinds: TomlLineKind[] = [];
  const tables: TomlTable[] = [];
  let depth = 0;
  // A newline inside a multi-line string: the next line starts there and is part of a value.
  const newlineInValue = (at: number) => {
    lineStarts.push(at + 1);
    kinds.push('other');
  };

  /** Scans from `k` to the `\n` that ends the line (or `n`); undefined when it cannot. */
  const scanRest = (start: number): number | undefined => {
    let k = start;
    while (k < n) {
      const ch = text[k];
      if (ch === '\n') return k;
      if (ch === '#') {
        const end = text.indexOf('\n', k);
        return end === -1 ? n : end;
      }
      if (ch === '"' || ch === "'") {
        const quote = ch;
        if (text.startsWith(quote.repeat(3), k)) {
          k += 3;
          for (;;) {
            if (k >= n) return undefined;
            const c = text[k];
            if (c === '\\' && quote === '"') {
              if (text[k + 1] === '\n') newlineInValue(k + 1);
              k += 2;
              continue;
            }
            if (c === '\n') newlineInValue(k);
            if (c === quote && text.startsWith(quote.repeat(3), k)) {
              // Up to two quotes of the content may stand right before the closing three.
              let run = 0;
              while (text[k + run] === quote) run++;
              if (run > 5) return undefined;
              k += run;
              break;
            }
            k++;
          }
          continue;
        }
        k++;
        for (;;) {
          const c = text[k];
          if (k >= n || c === '\n') return undefined;
          if (c === '\\' && quote === '"') {
            if (text[k + 1] === '\n') return undefined;
            k += 2;
            continue;
          }
          k++;
          if (c === quote) break;
        }
        continue;
      }
      if (ch === '[' || ch === '{') depth++;
      if (ch === ']' || ch === '}') {
        depth--;
        if (depth < 0) return undefined;
      }
      k++;
    }
    return n;
  };

  let i = 0;
  while (kinds.length < lineStarts.length) {
    let j = i;
    while (text[j] === ' ' || text[j] === '\t') j++;
    const ch = text[j];
    if (depth > 0) {
      kinds.push('other');
    } else if (j >= n || ch === '\n' || (ch === '\r' && text[j + 1] === '\n')) {
      kinds.push('blank');
    } else if (ch === '#') {
      kinds.push('comment');
    } else if (ch === '[') {
      const header = parseHeader(text, j);
      if (header === undefined) return undefined;
      tables.push({ path: header.path, array: header.array, line: kinds.length });
      kinds.push('header');
      j = header.end;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (!(j >= n || text[j] === '#' || text[j] === '\n' || text.startsWith('\r\n', j))) {
        return undefined;
      }
    } else {
      kinds.push('other');
    }
    const end = scanRest(j);
    if (end === undefined) return undefined;
    if (end >= n) break;
    lineStarts.push(end + 1);
    i = end + 1;
  }
  if (depth !== 0) return undefined;
  return { lineStarts, kinds, tables };
}

/**
 * The line ranges `[start, end)` that hold the tables of `[mcp_servers.<name>]` and its
 * sub-tables (`[mcp_servers.<name>.env]`…): from each header to the next one, less the comment
 * lines right above that next header (they belong to it). A table at the end runs to the end.
 */
export function serverTableLines(layout: TomlLayout, name: string): [number, number][] {
  const { tables, kinds } = layout;
  const ranges: [number, number][] = [];
  tables.forEach((table, index) => {
    if (table.path.length < 2 || table.path[0] !== 'mcp_servers' || table.path[1] !== name) return;
    const next = tables[index + 1];
    let end = next === undefined ? kinds.length : next.line;
    if (next !== undefined) {
      while (end - 1 > table.line && kinds[end - 1] === 'comment') end--;
    }
    ranges.push([table.line, end]);
  });
  return ranges;
}

/**
 * `text` without the given lines (ranges of {@link serverTableLines}; overlapping or not), every
 * other byte as it was.
 */
export function withoutLines(
  text: string,
  layout: TomlLayout,
  ranges: readonly (readonly [number, number])[],
): string {
  const drop = new Set<number>();
  for (const [start, end] of ranges) for (let line = start; line < end; line++) drop.add(line);
  let out = '';
  layout.lineStarts.forEach((start, line) => {
    if (drop.has(line)) return;
    out += text.slice(start, layout.lineStarts[line + 1] ?? text.length);
  });
  return out;
}
