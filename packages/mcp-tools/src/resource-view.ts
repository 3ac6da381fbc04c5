// Resources as the model and a host see them: the lists of `resources/list` and
// `resources/templates/list`, and a `resources/read` result wrapped for the model.
import { capText } from '@garuda/mcp-sanitize';
import { base64, base64Bytes, readResult, safe, showUri, uriText, wrap } from './content-text.js';
import { countOption } from './errors.js';
import { MAX_RESULT_CHARS } from './format-result.js';
import type { FormatResultOptions } from './format-result.js';
import { adaptList, lineField, optional, paragraphField, resultItems } from './list-view.js';
import type { AdaptedList, Listed, ResultItems } from './list-view.js';
import { groupDigits } from '@garuda/internal';
import type {
  McpResource,
  McpResourceTemplate,
  ResourceContent,
  ResourceResult,
  UriRefusal,
} from './types.js';
import { MAX_RESOURCE_URI_CHARS } from './uri-limit.js';

/** How many resources (or resource templates) of one server are kept by default. */
export const MAX_RESOURCES_PER_SERVER = 1000;

export { MAX_RESOURCE_URI_CHARS };

/** Options of {@link adaptResources} and {@link adaptResourceTemplates}. */
export interface AdaptResourcesOptions {
  /** How many are kept, the first ones listed (default {@link MAX_RESOURCES_PER_SERVER}). */
  readonly maxResources?: number;
}

/** What {@link adaptResources} returns. */
export interface AdaptResourcesResult {
  /** The resources, in the order the server listed them. */
  readonly resources: readonly McpResource[];
  /** One-line, cleaned notices for the user: skipped entries and why, a cut list. */
  readonly skipped: readonly string[];
}

/** What {@link adaptResourceTemplates} returns. */
export interface AdaptResourceTemplatesResult {
  /** The templates, in the order the server listed them. */
  readonly resourceTemplates: readonly McpResourceTemplate[];
  /** One-line, cleaned notices for the user: skipped entries and why, a cut list. */
  readonly skipped: readonly string[];
}

/** A raw URI or template: a non-empty string of at most {@link MAX_RESOURCE_URI_CHARS}. */
function uriProblem(value: unknown, what: string): string | undefined {
  if (typeof value !== 'string' || value === '') return `it has no ${what}`;
  if (value.length > MAX_RESOURCE_URI_CHARS) {
    return `its ${what} is longer than ${groupDigits(MAX_RESOURCE_URI_CHARS)} characters`;
  }
  return undefined;
}

/** The fields a resource and a template share, cleaned; a problem when the name is unusable. */
function described(entry: {
  name: unknown;
  title: unknown;
  description: unknown;
  mimeType: unknown;
}): { problem: string } | Pick<McpResource, 'name' | 'title' | 'description' | 'mimeType'> {
  if (typeof entry.name !== 'string') return { problem: 'it has no name' };
  const name = lineField(entry.name);
  if (name === undefined) return { problem: 'its name is empty once cleaned' };
  return {
    name,
    ...optional('title', lineField(entry.title)),
    ...optional('description', paragraphField(entry.description)),
    ...optional('mimeType', lineField(entry.mimeType)),
  };
}

function refusal(refused: UriRefusal | undefined): { uriRefused?: UriRefusal } {
  return optional('uriRefused', refused);
}

function resourceEntry(server: string, entry: Record<string, unknown>): Listed<McpResource> {
  // Each field is read once: a value built in code (not parsed JSON) could change between reads.
  const { uri, name, title, description, mimeType, size } = entry;
  const problem = uriProblem(uri, 'URI');
  if (problem !== undefined) return { problem, name };
  const fields = described({ name, title, description, mimeType });
  if ('problem' in fields) return { problem: fields.problem, name };
  const shown = showUri(uri);
  const raw = uri as string;
  return {
    key: raw,
    name,
    item: {
      server,
      uri: raw,
      shownUri: shown.shown,
      ...refusal(shown.refused),
      ...fields,
      ...optional(
        'size',
        typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined,
      ),
    },
  };
}

function templateEntry(
  server: string,
  entry: Record<string, unknown>,
): Listed<McpResourceTemplate> {
  const { uriTemplate, name, title, description, mimeType } = entry;
  const problem = uriProblem(uriTemplate, 'URI template');
  if (problem !== undefined) return { problem, name };
  const shownUriTemplate = lineField(uriTemplate);
  if (shownUriTemplate === undefined)
    return { problem: 'its URI template is empty once cleaned', name };
  const fields = described({ name, title, description, mimeType });
  if ('problem' in fields) return { problem: fields.problem, name };
  const raw = uriTemplate as string;
  return { key: raw, name, item: { server, uriTemplate: raw, shownUriTemplate, ...fields } };
}

const RESOURCES = { one: 'resource', many: 'resources', key: 'URI' };
const TEMPLATES = { one: 'resource template', many: 'resource templates', key: 'URI template' };

/** {@link adaptList} with the `maxResources` option, for resources or templates. */
function resourceList<T>(
  fn: 'adaptResources' | 'adaptResourceTemplates',
  server: string,
  list: unknown,
  options: AdaptResourcesOptions,
  read: (server: string, entry: Record<string, unknown>) => Listed<T>,
): AdaptedList<T> {
  const max = countOption(fn, 'maxResources', options.maxResources, MAX_RESOURCES_PER_SERVER);
  const kind = fn === 'adaptResources' ? RESOURCES : TEMPLATES;
  return adaptList(server, list, kind, max, (entry) => read(server, entry));
}

/**
 * Turns the resource list a server returned (untrusted, possibly hostile) into resources for a
 * host and a model.
 *
 * Each entry is judged alone: it needs a `uri` that is a non-empty string of at most
 * {@link MAX_RESOURCE_URI_CHARS} characters and a string `name` that is not empty once cleaned.
 * A malformed entry, one that throws (a getter, a proxy), and a second entry with the same `uri`
 * are skipped with a notice; entries past `maxResources` are left out with one notice. Each
 * `McpResource` keeps the raw `uri` (to read it back; never show it) and `shownUri`, the URI
 * through mcp-sanitize's `checkUrl` (`use: 'show'`: a `javascript:` URI, hidden characters or
 * credentials give `a URI that is not shown (CODE)`, with `uriRefused` the code). `name`,
 * `title` and `mimeType` are cleaned to one line, tag-neutralised and capped at 500 code points;
 * `description` keeps its lines, at most 2 000 characters; `size` only when it is a
 * non-negative safe integer. Nothing a server sends makes this throw.
 *
 * @param server - The server name (from the config).
 * @param list - The `resources` of the server's `resources/list` result, as it came.
 * @param options - `maxResources` (default 1 000).
 * @returns The resources and the notices.
 * @throws InvalidOptionError when `maxResources` is not a non-negative integer (a programming error).
 * @example
 * ```ts
 * const { resources, skipped } = adaptResources('docs', (await client.listResources()).resources);
 * for (const notice of skipped) prompter.notice(notice);
 * resources[0]; // { server: 'docs', uri: 'file:///a.md', shownUri: 'file:///a.md', name: 'a.md' }
 * ```
 */
export function adaptResources(
  server: string,
  list: unknown,
  options: AdaptResourcesOptions = {},
): AdaptResourcesResult {
  const { items, skipped } = resourceList('adaptResources', server, list, options, resourceEntry);
  return { resources: items, skipped };
}

/**
 * Turns the resource template list a server returned (untrusted) into templates, as
 * {@link adaptResources} does for resources: each entry needs a `uriTemplate` (a non-empty string
 * of at most {@link MAX_RESOURCE_URI_CHARS} characters) and a `name`; a malformed or repeated one
 * is skipped with a notice. The raw `uriTemplate` is kept to expand; `shownUriTemplate` is it as
 * text, never a link: cleaned to one line, tag-neutralised, capped at 500 code points. Never
 * throws on what a server sends.
 *
 * @param server - The server name.
 * @param list - The `resourceTemplates` of a `resources/templates/list` result, as it came.
 * @param options - `maxResources` (default 1 000).
 * @returns The templates and the notices.
 * @throws InvalidOptionError when `maxResources` is not a non-negative integer.
 * @example
 * ```ts
 * adaptResourceTemplates('docs', [{ uriTemplate: 'file:///{path}', name: 'file' }]);
 * // { resourceTemplates: [{ server: 'docs', uriTemplate: 'file:///{path}',
 * //     shownUriTemplate: 'file:///{path}', name: 'file' }], skipped: [] }
 * ```
 */
export function adaptResourceTemplates(
  server: string,
  list: unknown,
  options: AdaptResourcesOptions = {},
): AdaptResourceTemplatesResult {
  const { items, skipped } = resourceList(
    'adaptResourceTemplates',
    server,
    list,
    options,
    templateEntry,
  );
  return { resourceTemplates: items, skipped };
}

/** One content of a read resource: its part of the text, and its typed form when well formed. */
function readContent(
  asked: string,
  value: Record<string, unknown>,
  maxChars: number,
): { text: string; typed?: ResourceContent } {
  const { uri, mimeType, text, blob } = value;
  const shown = showUri(uri);
  // A content of another URI than the one asked for says so, as an embedded resource does.
  const prefix = uri === asked ? '' : `[resource: ${shown.shown}]\n`;
  const mime = lineField(mimeType);
  const base = {
    uri: typeof uri === 'string' && uri.length <= MAX_RESOURCE_URI_CHARS ? uri : '',
    shownUri: shown.shown,
    ...refusal(shown.refused),
    ...optional('mimeType', mime),
  };
  if (typeof text === 'string') {
    const cleaned = capText(safe(text), maxChars);
    return { text: `${prefix}${cleaned}`, typed: { ...base, kind: 'text', text: cleaned } };
  }
  if (typeof blob === 'string') {
    const data = base64(blob);
    const type = mime ?? 'unknown type';
    if (data === undefined) return { text: `${prefix}[binary: ${type}, not base64, not shown]` };
    const bytes = base64Bytes(data);
    return {
      text: `${prefix}[binary: ${type}, ${bytes} bytes, not shown]`,
      typed: { ...base, kind: 'blob', blob: data, bytes },
    };
  }
  return { text: `${prefix}[a content without text or blob, not shown]` };
}

const CONTENTS = { one: 'content', many: 'contents', none: 'no content' };

/**
 * Turns what a server returned for `resources/read` (untrusted, possibly hostile) into text for
 * the model and typed contents for a host.
 *
 * Text contents give their text; binary ones a note, `[binary: <MIME type>, N bytes, not shown]`
 * (the size computed without decoding); a content whose URI is not the one asked for starts with
 * `[resource: <uri>]`; a malformed content, contents that are not a list and a result that is
 * not an object give notes. Everything is cleaned, tag-neutralised (so `</mcp_resource>` in any
 * disguise cannot close the wrapper) and capped at `maxChars`, then wrapped in
 * `<mcp_resource server="<server>" uri="<uri>">…</mcp_resource>`, whose attribute values are
 * escaped as {@link formatResult}'s are; the `uri` attribute is the URI through `checkUrl`
 * (`use: 'show'`) or a note. `contents` are the well-formed contents typed (at most
 * `MAX_CONTENT_BLOCKS`): `kind: 'text'` with the cleaned, capped `text`, or `kind: 'blob'` with
 * the base64 `blob` as sent (checked to be base64) and its `bytes`; each with the raw `uri`,
 * `shownUri`, `uriRefused` when it is a note, and the cleaned `mimeType`. `omitted` counts the
 * rest. Nothing a server sends makes this throw.
 *
 * @param server - The server name.
 * @param uri - The URI that was read (the raw `McpResource.uri`).
 * @param result - What `client.readResource()` returned.
 * @param options - `maxChars` (default 30 000).
 * @returns The wrapped text, the typed contents and how many are left out.
 * @throws InvalidOptionError when `maxChars` is not a non-negative integer (a programming error).
 * @example
 * ```ts
 * formatResource('docs', 'file:///a.md', { contents: [{ uri: 'file:///a.md', text: '# A' }] });
 * // { text: '<mcp_resource server="docs" uri="file:///a.md">\n# A\n</mcp_resource>',
 * //   contents: [{ uri: 'file:///a.md', shownUri: 'file:///a.md', kind: 'text', text: '# A' }],
 * //   omitted: 0 }
 * ```
 */
export function formatResource(
  server: string,
  uri: string,
  result: unknown,
  options: FormatResultOptions = {},
): ResourceResult {
  const maxChars = countOption('formatResource', 'maxChars', options.maxChars, MAX_RESULT_CHARS);
  const read = readResult(
    result,
    (record) =>
      resultItems(record.contents, CONTENTS, maxChars, (item) => readContent(uri, item, maxChars)),
    (note): ResultItems<ResourceContent> => ({ body: note, items: [], omitted: 0 }),
  );
  return {
    text: wrap('mcp_resource', { server, uri: uriText(uri) }, read.body, maxChars),
    contents: read.items,
    omitted: read.omitted,
  };
}
