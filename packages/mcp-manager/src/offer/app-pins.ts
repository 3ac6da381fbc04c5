// MCP Apps (extension `io.modelcontextprotocol/ui`): the `ui://` resource a tool's
// `_meta.ui.resourceUri` names is a program a host runs, so it is pinned like a tool. Each app
// the server's tools name is read once when the tools are listed (at the start, and when the tool
// list changes) and joins the server's pinned list as an entry of its own: its content hash (the
// bytes as served) as the description side, its `_meta.ui` (CSP, permissions, domain) pinned with
// it (the content's `_meta.ui`, else the one the resource listing declares). A changed app is
// then a change of that list: announced for a user's server, asked about and
// held back for a project's, exactly as a tool. The content rides along in the entry's `_meta`
// (not hashed) and is served only from an entry that passed the pin check, after its bytes are
// checked against the pinned hash once more. The HTML is never cleaned as text: that would
// change the program the user allowed.
import { log } from '@garuda/internal';
import { cleanJson, cleanLine } from '@garuda/mcp-sanitize';
import { adaptTools } from '@garuda/mcp-tools';
import { hashAppContent } from '@garuda/mcp-trust';
import type { Resource, Tool } from '@modelcontextprotocol/client';
import { messageOf, oneLine } from '../common/text.js';
import type { ServerConnection } from '../start/server-connection.js';
import { listResources } from './server-lists.js';
import type { ManagerLogger } from '../types.js';

/**
 * What starts the pinned name of an app. No tool can have a name that starts with it: a tool
 * name must be what tag neutralisation leaves unchanged (see `PROMPT_PIN`). @internal
 */
export const APP_PIN = '<mcp_app>';

/** Where an app entry keeps its content: in `_meta`, which the pin does not hash. */
const CONTENT_KEY = 'garuda/appContent';

/** The largest app served, in bytes: a bigger one is not served (and not pinned). @internal */
export const MAX_APP_BYTES = 1_048_576;

/** The most apps of one server that are read and served; the rest are not. @internal */
export const MAX_APPS_PER_SERVER = 10;

/** The largest `_meta.ui` of an app, as JSON: a bigger one is dropped (the app stays). */
const MAX_APP_META_CHARS = 8_192;

/** An app's MIME type must be HTML (MCP Apps: `text/html;profile=mcp-app`). */
const HTML = 'text/html';

/** An MCP App as the manager serves it: the pinned content of one `ui://` resource. */
export interface McpApp {
  /** The server it comes from. */
  readonly server: string;
  /** The `ui://` URI as the server gave it (a URI that cleaning does not change). */
  readonly uri: string;
  /** The MIME type the server declared (cleaned to one line), e.g. `text/html;profile=mcp-app`. */
  readonly mimeType: string;
  /** The HTML exactly as the server served it (never cleaned: it is a program). */
  readonly text?: string;
  /** Or the content as base64, exactly as served. */
  readonly blob?: string;
  /** Its size in bytes (at most 1 MiB). */
  readonly bytes: number;
  /**
   * The resource's `_meta.ui` as the server declared it (CSP domains, permissions, domain,
   * prefersBorder), its strings cleaned of control characters; absent when it declared none.
   */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The pinned hash of its content: `sha256:<hex>` of its bytes. */
  readonly sha256: string;
}

interface AppContent {
  readonly mimeType: string;
  readonly text?: string;
  readonly blob?: string;
  readonly bytes: number;
}

/** Whether a pinned name is an app's. @internal */
export function isAppPin(name: string): boolean {
  return name.startsWith(APP_PIN);
}

/** The app `_meta.ui` kept: an object, its strings cleaned, at most 8 KiB as JSON. */
function appMeta(meta: unknown): Record<string, unknown> | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const ui = (meta as Record<string, unknown>).ui;
  if (typeof ui !== 'object' || ui === null || Array.isArray(ui)) return undefined;
  const cleaned = cleanJson(ui);
  const text = JSON.stringify(cleaned);
  if (text === undefined || text.length > MAX_APP_META_CHARS) return undefined;
  return cleaned as Record<string, unknown>;
}

/** The app's one content from a `resources/read` result, or why it is not served. */
function appContent(
  uri: string,
  result: { readonly contents?: unknown },
): { content: AppContent; meta: unknown } | string {
  const contents = Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const own = contents.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && (entry as { uri?: unknown }).uri === uri,
  );
  const [entry] = own;
  if (entry === undefined || own.length > 1) return 'it is not one content of that URI';
  const mimeType = typeof entry.mimeType === 'string' ? cleanLine(entry.mimeType) : '';
  if (mimeType.split(';')[0]?.trim().toLowerCase() !== HTML) {
    return `its MIME type is not ${HTML} (MCP Apps: ${HTML};profile=mcp-app)`;
  }
  let bytes: number;
  if (typeof entry.text === 'string') bytes = Buffer.byteLength(entry.text, 'utf8');
  else if (typeof entry.blob === 'string') bytes = Buffer.from(entry.blob, 'base64').length;
  else return 'it has no text or blob';
  if (bytes > MAX_APP_BYTES) return `it is larger than ${MAX_APP_BYTES} bytes`;
  const content: AppContent = {
    mimeType,
    bytes,
    ...(typeof entry.text === 'string' ? { text: entry.text } : { blob: entry.blob as string }),
  };
  return { content, meta: entry._meta };
}

/**
 * The server's resource listing, for the `_meta.ui` an app declares there; none (with a debug
 * log) when it cannot be listed. Only an abort is thrown.
 */
async function listedMeta(
  connection: ServerConnection,
  limits: { readonly signal: AbortSignal; readonly timeoutMs: number },
  logger: ManagerLogger | undefined,
): Promise<readonly Resource[]> {
  try {
    const lists = await connection.request('resources/list', listResources, limits);
    return lists.resources;
  } catch (error) {
    if (limits.signal.aborted) throw error;
    log(
      logger,
      'debug',
      `MCP server "${connection.server}": its resources could not be listed for its apps' metadata (${oneLine(messageOf(error))})`,
    );
    return [];
  }
}

/**
 * Reads the apps a server's tools name and turns each into its pinned entry. An app that cannot
 * be read, is not HTML or is larger than {@link MAX_APP_BYTES} is left out with a debug log (its
 * tool stays, without an app to show); only an abort is thrown. @internal
 *
 * @param connection - The running server.
 * @param tools - Its tools as listed (raw).
 * @param limits - The signal and time limit of each read.
 * @param logger - Where an app left out is told (`debug`).
 * @returns One pinned entry per app, sorted by URI.
 */
export async function readApps(
  connection: ServerConnection,
  tools: readonly Tool[],
  limits: { readonly signal: AbortSignal; readonly timeoutMs: number },
  logger: ManagerLogger | undefined,
): Promise<Tool[]> {
  const server = connection.server;
  const adapted = adaptTools(server, tools).tools;
  const uris = [
    ...new Set(
      adapted.flatMap((tool) => (tool.ui?.resourceUri === undefined ? [] : [tool.ui.resourceUri])),
    ),
  ].sort();
  if (uris.length > MAX_APPS_PER_SERVER) {
    log(
      logger,
      'debug',
      `MCP server "${server}": only its first ${MAX_APPS_PER_SERVER} apps are served`,
    );
  }
  const entries: Tool[] = [];
  const listed = uris.length === 0 ? [] : await listedMeta(connection, limits, logger);
  for (const uri of uris.slice(0, MAX_APPS_PER_SERVER)) {
    const skip = (why: string) =>
      log(
        logger,
        'debug',
        `MCP server "${server}": its app ${JSON.stringify(uri)} is not served: ${oneLine(why)}`,
      );
    let result;
    try {
      result = await connection.request(
        `the app ${JSON.stringify(uri)} of MCP server "${server}"`,
        (client, request) => client.readResource({ uri }, request),
        limits,
      );
    } catch (error) {
      if (limits.signal.aborted) throw error;
      skip(messageOf(error));
      continue;
    }
    const read = appContent(uri, result);
    if (typeof read === 'string') {
      skip(read);
      continue;
    }
    // The content's own `_meta.ui` wins; the listing's is the fallback (as MCP Apps says).
    const meta = appMeta(read.meta) ?? appMeta(listed.find((entry) => entry.uri === uri)?._meta);
    entries.push({
      name: `${APP_PIN}${uri}`,
      description: hashAppContent(read.content) as string,
      inputSchema: { type: 'object', mimeType: read.content.mimeType },
      _meta: { ...(meta === undefined ? {} : { ui: meta }), [CONTENT_KEY]: read.content },
    } as Tool);
  }
  return entries;
}

/**
 * The apps of a pinned list (the part of it that passed the pin check): each entry whose content
 * still hashes to its pin. @internal
 */
export function appsOf(server: string, list: readonly Tool[]): McpApp[] {
  const apps: McpApp[] = [];
  for (const entry of list) {
    if (!isAppPin(entry.name)) continue;
    const content = entry._meta?.[CONTENT_KEY] as AppContent | undefined;
    if (content === undefined || hashAppContent(content) !== entry.description) continue;
    const meta = (entry._meta as { ui?: Record<string, unknown> } | undefined)?.ui;
    apps.push({
      server,
      uri: entry.name.slice(APP_PIN.length),
      mimeType: content.mimeType,
      ...(content.text === undefined ? {} : { text: content.text }),
      ...(content.blob === undefined ? {} : { blob: content.blob }),
      bytes: content.bytes,
      ...(meta === undefined ? {} : { meta }),
      sha256: entry.description as string,
    });
  }
  return apps;
}

/**
 * A pinned list without the apps' content (their pins stay), for the lazy-start cache: an app is
 * served only from a running server's own reading. @internal
 */
export function withoutAppContent(list: readonly Tool[]): Tool[] {
  return list.map((entry) => {
    if (!isAppPin(entry.name) || entry._meta === undefined) return entry;
    const { [CONTENT_KEY]: _content, ...meta } = entry._meta;
    return { ...entry, _meta: meta };
  });
}

/**
 * What of a pinned list says which apps are served: each app's URI and pinned hash. Two lists
 * with the same key serve the same apps. @internal
 */
export function appsKey(list: readonly Tool[]): string {
  return JSON.stringify(
    list.filter((entry) => isAppPin(entry.name)).map((entry) => [entry.name, entry.description]),
  );
}
