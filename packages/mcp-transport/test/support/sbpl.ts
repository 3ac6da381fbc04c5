// A reader of the SBPL profiles seatbelt-profile.ts writes, for its tests on every OS: it parses
// the profile as macOS's sandbox-exec would read its s-expressions, and answers "may the server do
// this?" under the rule the profile is written for: the last rule that matches decides, and
// `(deny default)` comes first. It knows only the filters the profile uses.

/** One s-expression: a list, a symbol, or a string literal (already unescaped). */
export type SbplNode =
  | { readonly list: readonly SbplNode[] }
  | { readonly symbol: string }
  | { readonly string: string };

/**
 * Parses SBPL text into its top-level forms. `;` starts a comment outside strings; inside one, `\`
 * escapes the next character. Fails on anything unbalanced or unterminated, so a path that broke
 * out of its string would show up as a broken or different structure.
 *
 * @param text - The profile.
 * @returns The top-level forms.
 * @throws Error for unbalanced parentheses or an unterminated string.
 */
export function parseSbpl(text: string): SbplNode[] {
  let i = 0;
  const readList = (): SbplNode[] => {
    const items: SbplNode[] = [];
    while (i < text.length) {
      const ch = text[i] as string;
      if (ch === ';') {
        while (i < text.length && text[i] !== '\n') i += 1;
      } else if (/\s/.test(ch)) {
        i += 1;
      } else if (ch === '(') {
        i += 1;
        items.push({ list: readList() });
        if (text[i] !== ')') throw new Error(`unclosed list before offset ${i}`);
        i += 1;
      } else if (ch === ')') {
        return items;
      } else if (ch === '"') {
        let value = '';
        i += 1;
        while (text[i] !== '"') {
          if (i >= text.length) throw new Error('unterminated string');
          if (text[i] === '\\') i += 1;
          value += text[i];
          i += 1;
        }
        i += 1;
        items.push({ string: value });
      } else {
        const start = i;
        while (i < text.length && !/[\s()";]/.test(text[i] as string)) i += 1;
        items.push({ symbol: text.slice(start, i) });
      }
    }
    return items;
  };
  const forms = readList();
  if (i < text.length) throw new Error(`unexpected ")" at offset ${i}`);
  return forms;
}

/** One `(allow …)` or `(deny …)` rule: its operations, then its filters. */
export interface SbplRule {
  readonly verb: 'allow' | 'deny';
  readonly ops: readonly string[];
  readonly filters: readonly SbplNode[];
}

/**
 * The rules of a profile, in order, after checking that it is `(version 1)` and then rules only.
 *
 * @param text - The profile.
 * @returns Its rules.
 * @throws Error when a top-level form is something else.
 */
export function sbplRules(text: string): SbplRule[] {
  const [version, ...rest] = parseSbpl(text);
  if (show(version) !== '(version 1)') throw new Error(`starts with ${show(version)}`);
  return rest.map((form) => {
    if (!('list' in form)) throw new Error(`a bare ${show(form)} at the top level`);
    const [verb, ...more] = form.list;
    if (!verb || !('symbol' in verb) || (verb.symbol !== 'allow' && verb.symbol !== 'deny')) {
      throw new Error(`not a rule: ${show(form)}`);
    }
    const ops: string[] = [];
    const filters: SbplNode[] = [];
    for (const node of more) {
      if ('symbol' in node && filters.length === 0) ops.push(node.symbol);
      else if ('list' in node) filters.push(node);
      else throw new Error(`unexpected ${show(node)} in ${show(form)}`);
    }
    return { verb: verb.symbol, ops, filters };
  });
}

/**
 * A node written back as SBPL, strings quoted the way seatbelt-profile.ts quotes them; with
 * `blank`, every string becomes `""`, which gives the shape of a profile apart from its paths.
 */
export function show(node: SbplNode | undefined, blank = false): string {
  if (node === undefined) return '<nothing>';
  if ('symbol' in node) return node.symbol;
  if ('string' in node) return blank ? '""' : JSON.stringify(node.string);
  return `(${node.list.map((item) => show(item, blank)).join(' ')})`;
}

/** The path filters of the profile, `-D` parameters looked up. */
function pathFilter(
  filter: SbplNode,
  params: Readonly<Record<string, string>>,
): { kind: 'subpath' | 'literal'; path: string } | undefined {
  if (!('list' in filter)) return undefined;
  const [head, arg] = filter.list;
  if (!head || !('symbol' in head) || (head.symbol !== 'subpath' && head.symbol !== 'literal')) {
    return undefined;
  }
  if (arg && 'string' in arg) return { kind: head.symbol, path: arg.string };
  if (
    arg &&
    'list' in arg &&
    show(arg.list[0]) === 'param' &&
    arg.list[1] &&
    'string' in arg.list[1]
  ) {
    const value = params[arg.list[1].string];
    if (value === undefined) throw new Error(`no -D value for ${show(arg)}`);
    return { kind: head.symbol, path: value };
  }
  throw new Error(`unexpected path filter ${show(filter)}`);
}

/** Whether a rule's operation (`file-read*`, `default`…) covers `op` (`file-read-data`…). */
function covers(ruleOp: string, op: string): boolean {
  if (ruleOp === 'default' || ruleOp === op) return true;
  return ruleOp.endsWith('*') && op.startsWith(ruleOp.slice(0, -1));
}

/** The `-D KEY=VALUE` parameters of a sandbox-exec command line, as a record. */
export function sbplParams(args: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < args.length && args[i] !== '--'; i += 1) {
    if (args[i] === '-D') {
      const [key, ...value] = (args[i + 1] as string).split('=');
      params[key as string] = value.join('=');
      i += 1;
    }
  }
  return params;
}

/**
 * What the profile decides for a file operation on `file`: the last rule whose operation covers
 * it and whose filters match (no filters: everything) wins.
 *
 * @param rules - From {@link sbplRules}.
 * @param op - A file operation, e.g. `file-read-data`, `file-write-create`.
 * @param file - A real path.
 * @param params - The `-D` parameters.
 * @returns `allow` or `deny` (nothing matched: `deny`, as `(deny default)` would).
 */
export function decide(
  rules: readonly SbplRule[],
  op: string,
  file: string,
  params: Readonly<Record<string, string>> = {},
): 'allow' | 'deny' {
  let decision: 'allow' | 'deny' = 'deny';
  for (const rule of rules) {
    if (!rule.ops.some((ruleOp) => covers(ruleOp, op))) continue;
    const matches =
      rule.filters.length === 0 ||
      rule.filters.some((filter) => {
        const found = pathFilter(filter, params);
        if (found === undefined) return false;
        return found.kind === 'literal'
          ? file === found.path
          : file === found.path || file.startsWith(`${found.path}/`);
      });
    if (matches) decision = rule.verb;
  }
  return decision;
}
