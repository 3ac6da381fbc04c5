// How `garuda-mcp serve` names the resources and resource templates of the servers behind it, and
// what of a result's typed content it hands the host besides the framed text.
//
// A resource is `garuda://<server>/<the server's URI, percent-encoded>`: two servers may use the
// same URI, and a server's own URI is untrusted (never shown raw), so it travels as one opaque
// segment the gateway maps back. A template keeps its `{…}` expressions and encodes only the
// text between them, so the host expands it as RFC 6570 says and the gateway puts each expanded
// value back between the server's own text, exactly as the server's expansion would have.
import type {
  CallResult,
  McpResource,
  McpResourceTemplate,
  ResourceResult,
} from '@garuda/mcp-manager';

const SCHEME = 'garuda://';

/** The image and audio types a host is handed to render; anything else stays a note in the text. */
const MEDIA_TYPES: Readonly<Record<'image' | 'audio', ReadonlySet<string>>> = {
  // Raster formats only: an SVG is a document that can carry script and links.
  image: new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  audio: new Set([
    'audio/wav',
    'audio/x-wav',
    'audio/mpeg',
    'audio/ogg',
    'audio/webm',
    'audio/flac',
  ]),
};

/**
 * The images and audio of a call's result, for hosts that render them (the model reads the
 * framed text, where each is a note with its type and size): only well-known media types, with
 * data the manager checked to be base64.
 */
export function hostMedia(content: CallResult['content']) {
  return content.flatMap((block) =>
    (block.type === 'image' || block.type === 'audio') &&
    block.data !== '' &&
    MEDIA_TYPES[block.type].has(block.mimeType.toLowerCase())
      ? [{ type: block.type, data: block.data, mimeType: block.mimeType }]
      : [],
  );
}

function hostPrefix(server: string): string {
  return `${SCHEME}${encodeURIComponent(server)}/`;
}

/** The literal text and the `{…}` expressions of a URI template, in turn (text first). */
function templateParts(template: string): { literals: string[]; expressions: string[] } {
  const literals: string[] = [];
  const expressions: string[] = [];
  let rest = template;
  for (let found = /\{[^{}]*\}/.exec(rest); found !== null; found = /\{[^{}]*\}/.exec(rest)) {
    literals.push(rest.slice(0, found.index));
    expressions.push(found[0]);
    rest = rest.slice(found.index + found[0].length);
  }
  literals.push(rest);
  return { literals, expressions };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The URI the host sees for a server's resource. */
export function hostResourceUri(resource: Pick<McpResource, 'server' | 'uri'>): string {
  return `${hostPrefix(resource.server)}${encodeURIComponent(resource.uri)}`;
}

/** The URI template the host sees for a server's template: its expressions kept, the rest encoded. */
export function hostTemplateUri(template: Pick<McpResourceTemplate, 'server' | 'uriTemplate'>) {
  const { literals, expressions } = templateParts(template.uriTemplate);
  const body = literals
    .map((literal, index) => `${encodeURIComponent(literal)}${expressions[index] ?? ''}`)
    .join('');
  return `${hostPrefix(template.server)}${body}`;
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
    const { literals } = templateParts(template.uriTemplate);
    const pattern = new RegExp(
      `^${literals.map((literal) => escapeRegExp(encodeURIComponent(literal))).join('([^]*?)')}$`,
    );
    const found = pattern.exec(uri.slice(prefix.length));
    if (found === null) continue;
    const values = found.slice(1);
    return {
      server: template.server,
      uri: literals.map((literal, index) => `${literal}${values[index] ?? ''}`).join(''),
    };
  }
  return undefined;
}

/** A resource as the host lists it: the gateway's URI, and the manager's cleaned fields. */
export function hostResource(resource: McpResource) {
  return {
    uri: hostResourceUri(resource),
    name: `${resource.server}: ${resource.name}`,
    ...(resource.title === undefined ? {} : { title: resource.title }),
    description: `[From MCP server "${resource.server}"; its URI: ${resource.shownUri}]${
      resource.description === undefined ? '' : ` ${resource.description}`
    }`,
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
  };
}

/** A resource template as the host lists it, likewise. */
export function hostTemplate(template: McpResourceTemplate) {
  return {
    uriTemplate: hostTemplateUri(template),
    name: `${template.server}: ${template.name}`,
    ...(template.title === undefined ? {} : { title: template.title }),
    description: `[From MCP server "${template.server}"; its template: ${template.shownUriTemplate}]${
      template.description === undefined ? '' : ` ${template.description}`
    }`,
    ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
  };
}

/**
 * A resource that was read, for the host: the manager's framed text (`<mcp_resource …>`, cleaned)
 * first, then each binary content as the server sent it (checked to be base64), for hosts that
 * render images.
 */
export function hostResourceResult(uri: string, result: ResourceResult) {
  return {
    contents: [
      { uri, mimeType: 'text/plain', text: result.text },
      ...result.contents.flatMap((content) =>
        content.kind === 'blob'
          ? [
              {
                uri,
                blob: content.blob,
                ...(content.mimeType === undefined ? {} : { mimeType: content.mimeType }),
              },
            ]
          : [],
      ),
    ],
  };
}
