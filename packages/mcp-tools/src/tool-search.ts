// A search index over adapted tools, so a host can hold most MCP tools back from the model and
// let it find the ones a task needs (`mcp_tool_search`, see tool-search-tools.ts).
//
// BM25 is written here by hand (k1 = 1.2, b = 0.75, Lucene's non-negative idf) rather than taken
// from a library: the small npm ones are unmaintained or pull in a stemmer and a stopword corpus,
// and ranking about a thousand short documents takes sixty lines.
import { isRecord } from '@garuda/internal';
import { descriptionPrefix } from './adapt-tools.js';
import type { McpTool } from './types.js';

/** The most hits one search returns (the model's `limit` is clamped to it). */
export const MAX_TOOL_SEARCH_RESULTS = 20;

/** The longest query read, in characters; the rest is ignored. */
export const MAX_TOOL_SEARCH_QUERY_CHARS = 500;

/** How many hits a search returns when no `limit` is given. */
const DEFAULT_LIMIT = 5;

/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** How many times a tool's own name counts against one word of its description. */
const NAME_WEIGHT = 3;

/** One tool a search found. */
export interface ToolSearchHit {
  /** The model's name for the tool, `mcp__<server>__<tool>`. */
  readonly name: string;
  /** Server name. */
  readonly server: string;
  /** The tool's MCP name, as the server knows it. */
  readonly tool: string;
  /** How well it matches (BM25; higher is better, only comparable within one search). */
  readonly score: number;
}

/** Options of {@link ToolIndex.search}. */
export interface ToolSearchOptions {
  /**
   * The most hits (default 5). What a model sends is clamped, never refused: below 1 gives 1,
   * above {@link MAX_TOOL_SEARCH_RESULTS} gives 20, a fraction is rounded down, and anything that
   * is not a finite number gives the default.
   */
  readonly limit?: number;
  /** Only tools of this server (its name exactly). */
  readonly server?: string;
}

/** A search index over a set of tools (from {@link createToolIndex}). */
export interface ToolIndex {
  /**
   * The tools that best match `query`, best first (then by name).
   *
   * @param query - Words, as the model wrote them; only the first 500 characters are read.
   * @param options - `limit` (default 5, at most 20) and `server`.
   * @returns The hits; `[]` for an empty query or one with no word any tool has.
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[];
  /**
   * The indexed tool with this model name, for the host that calls it (`mcp_tool_call`) or
   * words a result (`formatToolSearchResult`). A plain function: it can be passed on as it is.
   *
   * @param name - A model name, `mcp__<server>__<tool>`.
   * @returns The tool, or `undefined`.
   */
  get(name: string): McpTool | undefined;
  /** How many tools are indexed. */
  readonly size: number;
}

const CAMEL_LOWER = /(\p{Ll}|\p{N})(\p{Lu})/gu;
/**
 * The last capital of a run before a capitalised word (`HTMLParser` → `HTML Parser`), found by
 * looking ahead from each capital: `(\p{Lu}+)(\p{Lu}\p{Ll})` would read a long run of capitals
 * again from each of them.
 */
const CAMEL_UPPER = /(\p{Lu})(?=\p{Lu}\p{Ll})/gu;
const SEPARATOR = /[^\p{L}\p{N}]+/u;

/**
 * The words of a text: split on camelCase and snake_case boundaries and on everything that is
 * not a letter or a digit, lower-cased, words of one character dropped
 * (`listPullRequests` → `list pull requests`, `read_file` → `read file`). @internal
 *
 * @param text - Any text.
 * @returns The words, in order, repeats kept.
 */
export function tokenize(text: string): string[] {
  return text
    .replace(CAMEL_LOWER, '$1 $2')
    .replace(CAMEL_UPPER, '$1 ')
    .toLowerCase()
    .split(SEPARATOR)
    .filter((word) => word.length > 2 || Array.from(word).length > 1);
}

/**
 * A word as the index keeps it: a plain English plural folded (`issues` → `issue`,
 * `repositories` → `repository`), so a query in the singular finds `list_issues`. Not a stemmer:
 * `status`, `class` and `analysis` stay as they are. @internal
 */
export function term(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) {
    return word.slice(0, -1);
  }
  return word;
}

function terms(text: string): string[] {
  return tokenize(text).map(term);
}

/** What the index reads of a tool: its name (weighted), server, description and argument names. */
function toolTerms(tool: McpTool): string[] {
  const prefix = descriptionPrefix(tool.server);
  const description = tool.description.startsWith(prefix)
    ? tool.description.slice(prefix.length)
    : tool.description;
  const properties = isRecord(tool.inputSchema.properties)
    ? Object.keys(tool.inputSchema.properties).join(' ')
    : '';
  const name = terms(tool.tool);
  const out: string[] = [];
  for (let i = 0; i < NAME_WEIGHT; i++) out.push(...name);
  out.push(...terms(tool.server), ...terms(description), ...terms(properties));
  return out;
}

/** One tool in the index. */
interface Entry {
  readonly tool: McpTool;
  /** How many words the tool has, name repeats included. */
  readonly length: number;
}

/** Where a word occurs: which entry, how many times (counted up while the entry is read). */
interface Posting {
  readonly entry: number;
  count: number;
}

function limitOf(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_TOOL_SEARCH_RESULTS, Math.max(1, Math.floor(limit)));
}

/**
 * Builds a search index over adapted tools, for a host that holds most MCP tools back from the
 * model and offers `mcp_tool_search` instead (see `toolSearchTool`).
 *
 * Each tool is read as words ({@link tokenize}: camelCase and snake_case split, lower-cased,
 * one-letter words dropped, plain plurals folded): its MCP name (counted three times), its
 * server's name, its description without the `[From MCP server "x". …]` prefix, and the names of
 * its top-level arguments. A search ranks them with BM25 (k1 = 1.2, b = 0.75) on the query's
 * words (each counted once, so repeating a word does not push a tool up), and a query that is a
 * tool's MCP name or model name as a whole (case aside) puts that tool first. A second tool with
 * a model name already indexed is left out (the first one keeps it, as in `adaptTools`).
 * Building costs one pass over the tools; a search reads only the tools that have one of its
 * words. Nothing a model sends makes `search` throw.
 *
 * @param tools - Adapted tools (from `adaptTools`), of any number of servers.
 * @returns The index.
 * @example
 * ```ts
 * const index = createToolIndex([...github.tools, ...files.tools]);
 * index.search('open pull requests', { limit: 3 });
 * // [{ name: 'mcp__github__list_pull_requests', server: 'github', tool: 'list_pull_requests', score: 7.9 }, …]
 * ```
 */
export function createToolIndex(tools: readonly McpTool[]): ToolIndex {
  const entries: Entry[] = [];
  const byName = new Map<string, McpTool>();
  const postings = new Map<string, Posting[]>();
  /** Entries by their MCP name and model name, lower-cased: a query that is one ranks it first. */
  const exact = new Map<string, number[]>();
  let words = 0;
  for (const tool of tools) {
    if (byName.has(tool.name)) continue;
    byName.set(tool.name, tool);
    const index = entries.length;
    const all = toolTerms(tool);
    entries.push({ tool, length: all.length });
    words += all.length;
    for (const word of all) {
      const list = postings.get(word);
      const last = list?.at(-1);
      if (last?.entry === index) last.count += 1;
      else if (list === undefined) postings.set(word, [{ entry: index, count: 1 }]);
      else list.push({ entry: index, count: 1 });
    }
    for (const key of new Set([tool.tool.toLowerCase(), tool.name.toLowerCase()])) {
      const list = exact.get(key);
      if (list === undefined) exact.set(key, [index]);
      else list.push(index);
    }
  }
  const averageLength = entries.length === 0 ? 0 : words / entries.length;
  // BM25's length normalisation of each entry, worked out once.
  const lengthNorm = Float64Array.from(
    entries,
    ({ length }) => K1 * (1 - B + (B * length) / averageLength),
  );

  const search = (query: string, options?: ToolSearchOptions): ToolSearchHit[] => {
    if (typeof query !== 'string') return [];
    const text = query.slice(0, MAX_TOOL_SEARCH_QUERY_CHARS);
    // Read once each, and only from an object: a host may pass what the model sent as it is.
    const given: Record<string, unknown> = isRecord(options) ? options : {};
    const limit = given.limit;
    const server = typeof given.server === 'string' ? given.server : undefined;
    const wanted = (entry: number) =>
      server === undefined || entries[entry]?.tool.server === server;
    // One slot per entry, and the list of those touched: a search reads only the tools that have
    // one of its words.
    const scores = new Float64Array(entries.length);
    const touched: number[] = [];
    const add = (entry: number, score: number) => {
      if (scores[entry] === 0) touched.push(entry);
      scores[entry] = (scores[entry] ?? 0) + score;
    };
    for (const word of new Set(terms(text))) {
      const list = postings.get(word);
      if (list === undefined) continue;
      const idf = Math.log(1 + (entries.length - list.length + 0.5) / (list.length + 0.5));
      for (const { entry, count } of list) {
        if (server !== undefined && !wanted(entry)) continue;
        add(entry, (idf * count * (K1 + 1)) / (count + (lengthNorm[entry] ?? 0)));
      }
    }
    const whole = exact.get(text.trim().toLowerCase())?.filter(wanted) ?? [];
    if (whole.length > 0) {
      // Above every other score, so the tool named is first and the order stays by score.
      let top = 0;
      for (const entry of touched) top = Math.max(top, scores[entry] ?? 0);
      for (const entry of whole) add(entry, top + 1);
    }
    // The best `max` entries, kept in order while the others are read: a common word touches
    // every tool, and only a handful are returned.
    const max = limitOf(limit);
    const before = (a: number, b: number): boolean => {
      const sa = scores[a] ?? 0;
      const sb = scores[b] ?? 0;
      if (sa !== sb) return sa > sb;
      return (entries[a]?.tool.name ?? '') < (entries[b]?.tool.name ?? '');
    };
    const best: number[] = [];
    for (const entry of touched) {
      if ((scores[entry] ?? 0) <= 0) continue;
      if (best.length === max && !before(entry, best[max - 1] ?? entry)) continue;
      let at = best.length === max ? max - 1 : best.length;
      while (at > 0 && before(entry, best[at - 1] ?? entry)) {
        best[at] = best[at - 1] ?? entry;
        at -= 1;
      }
      best[at] = entry;
    }
    return best.map((entry) => {
      const tool = entries[entry]?.tool as McpTool;
      return { name: tool.name, server: tool.server, tool: tool.tool, score: scores[entry] ?? 0 };
    });
  };

  return { search, get: (name: string) => byName.get(name), size: entries.length };
}
