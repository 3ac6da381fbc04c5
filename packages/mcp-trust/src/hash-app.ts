// The pin of an MCP App's content (a `ui://` resource a tool's `_meta.ui.resourceUri` names). The
// HTML is hashed as the bytes the server served, never as cleaned text: cleaning would change the
// program, and the pin must say whether the program changed.
import { createHash } from 'node:crypto';

/** One content of a `resources/read` result of a `ui://` resource, as far as the pin cares. */
export interface AppContentShape {
  /** The text content (HTML), hashed as its UTF-8 bytes. */
  readonly text?: string;
  /** Or the base64 content, hashed as its decoded bytes. */
  readonly blob?: string;
}

/**
 * The pin of an MCP App's content: `sha256:` and the hex digest of its bytes — a text content's
 * UTF-8 bytes, a blob's decoded bytes — so the same HTML served as text or as base64 pins alike.
 * Its `_meta.ui` (CSP, permissions) is pinned by the caller next to it.
 *
 * @param content - The content as the server sent it.
 * @returns `sha256:<64 hex characters>`, or `undefined` when it has neither text nor blob.
 * @example
 * ```ts
 * hashAppContent({ text: '<!doctype html><p>hi</p>' }); // 'sha256:…'
 * ```
 */
export function hashAppContent(content: AppContentShape): string | undefined {
  const bytes =
    typeof content.text === 'string'
      ? Buffer.from(content.text, 'utf8')
      : typeof content.blob === 'string'
        ? Buffer.from(content.blob, 'base64')
        : undefined;
  if (bytes === undefined) return undefined;
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
