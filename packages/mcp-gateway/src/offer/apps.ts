// MCP Apps (extension `io.modelcontextprotocol/ui`) through the gateway. Only a host that
// declares the extension (with the app MIME type) gets them: its tools carry `_meta.ui`, the
// app-only tools are listed (their `visibility` tells the host to keep them from its model), and
// each app is a `ui://<server>/<the server's URI, percent-encoded>` resource, read back as the
// bytes the manager pinned, with the server's `_meta.ui` (CSP, permissions) as it declared it.
// Any other host sees none of it: no `_meta.ui`, no app-only tool, no `ui://` resource.
//
// Which server an app comes from: the URI's authority is the server's name, the resource's name
// starts with it, and the tool's host name is `<server>__<tool>`.
import { stampedMeta } from './meta.js';
import type { McpApp, McpManager } from '@garuda/mcp-manager';
import { isAppOnly, type McpTool } from '@garuda/mcp-tools';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The extension's identifier in a host's `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP App's HTML. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

const UI_SCHEME = 'ui://';

/**
 * Whether the host that sent this request renders MCP Apps: the capabilities the request carries
 * (2026-07-28) or those of its `initialize` (2025) list the extension, with the app MIME type
 * among its `mimeTypes`.
 */
export function hostRendersApps(server: Server, context: ServerContext | undefined): boolean {
  const envelope = context?.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()) as
    (ClientCapabilities & { extensions?: Record<string, unknown> }) | undefined;
  const ui = declared?.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return (
    typeof ui === 'object' &&
    ui !== null &&
    Array.isArray(ui.mimeTypes) &&
    ui.mimeTypes.includes(APP_MIME_TYPE)
  );
}

/** The URI the host sees for an app: `ui://<server>/<the server's URI, percent-encoded>`. */
export function hostAppUri(app: Pick<McpApp, 'server' | 'uri'>): string {
  return `${UI_SCHEME}${encodeURIComponent(app.server)}/${encodeURIComponent(app.uri)}`;
}

/** The tools a host that renders apps lists: the model's, and the app-only ones. */
export function appHostTools(mcp: McpManager): McpTool[] {
  return [...mcp.tools(), ...mcp.offeredTools().filter(isAppOnly)];
}

/**
 * The `_meta` a host tool carries for a host that renders apps — the one place a server's
 * `_meta.ui` passes to a host: the tool's visibility, and its app's URI rewritten to the
 * gateway's when that app is served (pinned and allowed); nothing for a tool without one.
 */
export function toolUiMeta(
  tool: McpTool,
  apps: readonly McpApp[],
): Record<string, unknown> | undefined {
  const { ui } = tool;
  if (ui === undefined) return undefined;
  const app =
    ui.resourceUri === undefined
      ? undefined
      : apps.find((entry) => entry.server === tool.server && entry.uri === ui.resourceUri);
  const meta = {
    ...(app === undefined ? {} : { resourceUri: hostAppUri(app) }),
    ...(ui.visibility === undefined ? {} : { visibility: [...ui.visibility] }),
  };
  return Object.keys(meta).length === 0 ? undefined : stampedMeta({ ui: meta });
}

/**
 * The tool an app's call names when it is not a host name: an app calls its own server's tools
 * by the server's names. Resolved only when exactly one server's tool that an app may call
 * (`visibility` with `app`, or none) has that name; the call then runs as any call does.
 */
export function appCallTarget(mcp: McpManager, name: string): McpTool | undefined {
  const found = mcp
    .offeredTools()
    .filter(
      (tool) =>
        tool.tool === name &&
        tool.ui !== undefined &&
        (tool.ui.visibility === undefined || tool.ui.visibility.includes('app')),
    );
  return found.length === 1 ? found[0] : undefined;
}

/** An app as `resources/list` shows it to a host that renders apps. */
export function hostAppResource(app: McpApp) {
  return {
    uri: hostAppUri(app),
    name: `${app.server}: ${app.uri}`,
    description: `[MCP App of MCP server "${app.server}"; ${app.bytes} bytes, pinned as ${app.sha256}]`,
    mimeType: app.mimeType,
    ...(app.meta === undefined ? {} : { _meta: { ui: app.meta } }),
  };
}

/**
 * `resources/read` of an app: its pinned content exactly, with its `_meta.ui`. `undefined` when
 * `uri` is not a served app's (the host does not render apps, or no such app).
 */
export function readHostApp(mcp: McpManager, uri: string, renders: boolean) {
  if (!renders || !uri.startsWith(UI_SCHEME)) return undefined;
  const app = mcp.apps().find((entry) => hostAppUri(entry) === uri);
  if (app === undefined) return undefined;
  const meta = app.meta === undefined ? {} : { _meta: { ui: app.meta } };
  const content =
    app.text === undefined
      ? { uri, mimeType: app.mimeType, blob: app.blob as string, ...meta }
      : { uri, mimeType: app.mimeType, text: app.text, ...meta };
  return { contents: [content] };
}
