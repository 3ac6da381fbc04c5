// How the gateway names the resources and resource templates of the servers behind it.
//
// A resource is `garuda://<server>/<the server's URI, percent-encoded>`: two servers may use the
// same URI, and a server's own URI is untrusted (never shown raw), so it travels as one opaque
// segment the gateway maps back. A template keeps its `{…}` expressions and encodes only the
// text between them, so the host expands it as RFC 6570 says and the gateway puts each expanded
// value back between the server's own text, exactly as the server's expansion would have. The
// match is linear (uri-template-match.ts); a template it could not match so is not offered.
import type { McpResource, McpResourceTemplate, ResourceResult } from '@garuda/mcp-tools';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Offered } from './offered.js';
import { asProtocolError } from './prompts.js';
import { matchTemplate, templateParts, templateShape } from './uri-template-match.js';
import { hostAppResource, hostRendersApps, readHostApp } from './apps.js';

const SCHEME = 'garuda://';

function hostPrefix(server: string): string {
  return `${SCHEME}${encodeURIComponent(server)}/`;
}

/** The URI the host sees for a server's resource. */
export function hostResourceUri(resource: Pick<McpResource, 'server' | 'uri'>): string {
  return `${hostPrefix(resource.server)}${encodeURIComponent(resource.uri)}`;
}

/**
 * The server and its URI behind a host's URI: one of the resources listed now, or one a listed
 * template of that server expands to. `undefined` for anything else (nothing is read then).
 */
export function resourceOfHostUri(
  uri: string,
  resources: readonly McpResource[],
  templates: readonly McpResourceTemplate[],
): { server: string; uri: string } | undefined {
  const listed = resources.find((resource) => hostResourceUri(resource) === uri);
  if (listed !== undefined) return { server: listed.server, uri: listed.uri };
  for (const template of templates) {
    const prefix = hostPrefix(template.server);
    if (!uri.startsWith(prefix)) continue;
    const shape = templateShape(template.uriTemplate);
    if (!shape.ok) continue;
    const values = matchTemplate(shape.pieces.literals, uri.slice(prefix.length));
    if (values === undefined) continue;
    // The server's own text (not the host's encoding of it) around each expanded value.
    const { literals } = templateParts(template.uriTemplate);
    return {
      server: template.server,
      uri: literals.map((literal, index) => `${literal}${values[index] ?? ''}`).join(''),
    };
  }
  return undefined;
}

/**
 * The manager's cleaned fields of a resource or template as the host lists them: the name and
 * description say which server it comes from, and `address` how that server names it.
 */
function listedFields(item: McpResource | McpResourceTemplate, address: string) {
  return {
    name: `${item.server}: ${item.name}`,
    ...(item.title === undefined ? {} : { title: item.title }),
    description: `[From MCP server "${item.server}"; ${address}]${
      item.description === undefined ? '' : ` ${item.description}`
    }`,
    ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }),
  };
}

/** A resource as the host lists it: the gateway's URI, and the manager's cleaned fields. */
export function hostResource(resource: McpResource) {
  return {
    uri: hostResourceUri(resource),
    ...listedFields(resource, `its URI: ${resource.shownUri}`),
  };
}

/**
 * The resource templates as the host lists them: each template's expressions kept and the text
 * between them percent-encoded, with the manager's cleaned fields. A template the gateway could
 * not match back in linear time (see {@link templateShape}: too long, too many expressions, two
 * with no text between them) is left out and told to `refused` with the reason; only an offered
 * template's expansion is ever read ({@link resourceOfHostUri} checks the same shape).
 *
 * @param templates - The manager's templates.
 * @param refused - Hears each template left out, and why.
 * @returns The templates for `resources/templates/list`.
 */
export function hostTemplates(
  templates: readonly McpResourceTemplate[],
  refused: (template: McpResourceTemplate, reason: string) => void,
) {
  return templates.flatMap((template) => {
    const shape = templateShape(template.uriTemplate);
    if (!shape.ok) {
      refused(template, shape.reason);
      return [];
    }
    const { literals, expressions } = shape.pieces;
    const body = literals.map((literal, index) => `${literal}${expressions[index] ?? ''}`).join('');
    return [
      {
        uriTemplate: `${hostPrefix(template.server)}${body}`,
        ...listedFields(template, `its template: ${template.shownUriTemplate}`),
      },
    ];
  });
}

/**
 * A resource that was read, for the host: the manager's framed text (`<mcp_resource …>`, cleaned)
 * and each binary content as the server sent it (checked to be base64), for hosts that render
 * images; the blobs first when the server's first content was one.
 */
export function hostResourceResult(uri: string, result: ResourceResult) {
  const framed = { uri, mimeType: 'text/plain', text: result.text };
  const blobs = result.contents.flatMap((content) =>
    content.kind === 'blob'
      ? [
          {
            uri,
            blob: content.blob,
            ...(content.mimeType === undefined ? {} : { mimeType: content.mimeType }),
          },
        ]
      : [],
  );
  // The first block is of the kind the server sent first: a host reading a binary resource
  // takes contents[0] as its bytes, and the framed text then follows as the note about them.
  return {
    contents: result.contents[0]?.kind === 'blob' ? [...blobs, framed] : [framed, ...blobs],
  };
}

/** The host's error for a URI that names no resource behind the gateway. */
export function noSuchResource(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'No such resource behind this gateway (see resources/list and resources/templates/list).',
  );
}

/**
 * Answers `resources/list`, `resources/templates/list` and `resources/read` on `server` from the
 * manager's resources, under `garuda://` URIs; `noticeRefusedTemplate` hears a template that is
 * not offered. A list answers at once with what the running servers offer and starts, in the
 * background, the servers a lazy start offers from their pins (`resources/list_changed` follows).
 */
export function offerResources({
  server,
  mcp,
  started,
  signal,
  noticeRefusedTemplate,
  wakeReady,
}: Offered & {
  readonly noticeRefusedTemplate: (template: McpResourceTemplate, reason: string) => void;
  /** Starts the servers offered from their pins, in the background (their resources follow). */
  readonly wakeReady: () => void;
}): void {
  server.setRequestHandler('resources/list', async (_request, requestContext) => {
    await started;
    wakeReady();
    // A `ui://` resource is an MCP App: only a host that renders apps gets it, as an app.
    const listed = mcp
      .resources()
      .filter((resource) => !resource.uri.startsWith('ui://'))
      .map(hostResource);
    if (!hostRendersApps(server, requestContext)) return { resources: listed };
    return { resources: [...listed, ...mcp.apps().map(hostAppResource)] };
  });
  server.setRequestHandler('resources/templates/list', async () => {
    await started;
    wakeReady();
    return { resourceTemplates: hostTemplates(mcp.resourceTemplates(), noticeRefusedTemplate) };
  });
  server.setRequestHandler('resources/read', async (request, requestContext) => {
    await started;
    const app = readHostApp(mcp, request.params.uri, hostRendersApps(server, requestContext));
    if (app !== undefined) return app;
    const target = resourceOfHostUri(request.params.uri, mcp.resources(), mcp.resourceTemplates());
    if (target === undefined) throw noSuchResource();
    try {
      const result = await mcp.readResource(target.server, target.uri, {
        signal: AbortSignal.any([signal, requestContext.mcpReq.signal]),
      });
      return hostResourceResult(request.params.uri, result);
    } catch (error) {
      throw asProtocolError(error);
    }
  });
}
