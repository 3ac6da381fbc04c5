// What of a result's or a prompt's typed content the gateway hands a host besides the model's
// framed text: images and audio of well-known types, and embedded resources. MCP has no client
// capability that says which content types a host renders, and every host must accept the whole
// content union in a result and in a prompt message, so these go to every host; one that does not
// render a type shows or drops it, and the model still reads the framed text, where each is a note
// (an embedded text resource's text included).
import type { ManagerCallResult } from '@garuda/mcp-manager';
import type { PromptMessage } from '@garuda/mcp-tools';
import type { ContentBlock } from '@modelcontextprotocol/server';

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
function hostMedia(content: ManagerCallResult['content']) {
  return content.flatMap((block) =>
    (block.type === 'image' || block.type === 'audio') &&
    block.data !== '' &&
    MEDIA_TYPES[block.type].has(block.mimeType.toLowerCase())
      ? [{ type: block.type, data: block.data, mimeType: block.mimeType }]
      : [],
  );
}

/** One typed block of the manager's (cleaned; binary data checked to be base64). */
type Typed = ManagerCallResult['content'][number];
type Embedded = Extract<Typed, { type: 'resource' }>;

/** The largest embedded binary resource handed to a host, decoded (a message is at most 4 MiB). */
export const MAX_EMBEDDED_BYTES = 4 * 1024 * 1024;

/**
 * The binary types an embedded resource is handed over with: raster images, audio, PDF and
 * opaque bytes. Anything else (an SVG or an HTML page can carry script) stays a note in the text.
 */
const EMBEDDED_BLOB_TYPES: ReadonlySet<string> = new Set([
  ...MEDIA_TYPES.image,
  ...MEDIA_TYPES.audio,
  'application/pdf',
  'application/octet-stream',
]);

/** An embedded resource as the host gets it. */
type HostEmbedded = {
  readonly type: 'resource';
  readonly resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
};

/**
 * An embedded resource for the host, or why it is not handed over: a URI `checkUrl` refused, a
 * binary type or size it does not take, or no content.
 */
export function hostEmbedded(block: Embedded): HostEmbedded | { readonly refused: string } {
  if (block.uri === undefined) {
    return { refused: `its URI is not shown (${block.uriRefused ?? 'NO_URI'})` };
  }
  const mime = block.mimeType === undefined ? {} : { mimeType: block.mimeType };
  if (block.text !== undefined) {
    return { type: 'resource', resource: { uri: block.uri, ...mime, text: block.text } };
  }
  if (block.blob === undefined || block.blob === '') return { refused: 'it has no content' };
  if (!EMBEDDED_BLOB_TYPES.has((block.mimeType ?? '').toLowerCase())) {
    return { refused: `its type (${block.mimeType ?? 'none'}) is not one handed to hosts` };
  }
  if ((block.bytes ?? 0) > MAX_EMBEDDED_BYTES) {
    return { refused: `it is larger than ${MAX_EMBEDDED_BYTES} bytes` };
  }
  return { type: 'resource', resource: { uri: block.uri, ...mime, blob: block.blob } };
}

/**
 * A call result's typed blocks for the host, in the result's order: images and audio of
 * well-known types, embedded resources, and a `<garuda_note>` for each embedded resource not
 * handed over, saying why.
 */
export function hostBlocks(content: ManagerCallResult['content']): ContentBlock[] {
  return content.flatMap((block): ContentBlock[] => {
    if (block.type !== 'resource') return hostMedia([block]);
    const embedded = hostEmbedded(block);
    return 'refused' in embedded
      ? [
          {
            type: 'text' as const,
            text: `<garuda_note>An embedded resource of this result is not handed over: ${embedded.refused}.</garuda_note>`,
          },
        ]
      : [embedded];
  });
}

/**
 * A prompt message's content for the host: its image, audio or embedded resource typed when the
 * gateway hands such a block over, else the manager's cleaned text of it (a note for what is
 * not handed over, with the reason the manager gives, such as a refused URI).
 */
export function hostPromptContent(message: PromptMessage) {
  const block = message.content;
  if (block.type === 'image' || block.type === 'audio') {
    const [media] = hostMedia([block]);
    if (media !== undefined) return media;
  } else if (block.type === 'resource') {
    const embedded = hostEmbedded(block);
    if (!('refused' in embedded)) return embedded;
  }
  return { type: 'text' as const, text: message.text };
}
