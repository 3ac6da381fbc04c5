// A tool's MCP Apps metadata (`_meta.ui`, extension `io.modelcontextprotocol/ui`): which `ui://`
// resource a host renders for it, and who may call it (the model, the app, or both). Only the
// two fields a host acts on are kept, and only when they are exactly what the extension
// defines; anything else is dropped with a reason (the tool itself stays usable).
import { cleanLine, neutralizeTags } from '@garuda/mcp-sanitize';
import { isRecord } from '@garuda/internal';
import { MAX_RESOURCE_URI_CHARS } from './uri-limit.js';

/** The URI scheme of an MCP App's resource. */
const UI_SCHEME = 'ui://';

/** Who may call a tool, as MCP Apps says: the model (`model`), the server's own app (`app`). */
export type ToolVisibility = 'model' | 'app';

const VISIBILITIES: readonly ToolVisibility[] = ['model', 'app'];

/** A tool's MCP Apps metadata, checked (from `_meta.ui` of the server's tool). */
export interface ToolUi {
  /**
   * The `ui://` resource of the tool's server that a host renders for it, exactly as the server
   * gave it (a URI that cleaning would not change, at most `LIMITS.maxResourceUriChars`
   * characters). Absent for a tool that has no app of its own (an app-only helper tool).
   */
  readonly resourceUri?: string;
  /**
   * Who may call it, in the server's order without repeats; absent when the server gave none
   * (the extension's default: both). A list without `model` makes the tool app-only: it is never
   * given to the model.
   */
  readonly visibility?: readonly ToolVisibility[];
}

/** What {@link toolUi} found: the checked metadata, or why it was dropped. @internal */
export type ToolUiOutcome =
  | { readonly ui?: ToolUi; readonly problem?: undefined }
  | { readonly ui?: undefined; readonly problem: string };

/**
 * Reads and checks a tool's `_meta.ui`. `resourceUri` must be a `ui://` URI that cleaning and
 * tag neutralisation leave unchanged (it is handed back to the same server as it is, and a host
 * shows it), at most {@link MAX_RESOURCE_URI_CHARS} characters; `visibility` a non-empty list of
 * `model` and `app`. Any other field (`csp`, `permissions`: the resource's, not the tool's) is
 * left out. One bad field drops the whole metadata: a tool whose app-only marking cannot be read
 * must not be guessed into the model's list or out of it. @internal
 *
 * @param meta - The tool's `_meta`, as the server sent it (untrusted).
 * @returns `{}` when there is no `_meta.ui`, `{ ui }` when it is valid, `{ problem }` otherwise.
 */
export function toolUi(meta: unknown): ToolUiOutcome {
  if (!isRecord(meta) || meta.ui === undefined) return {};
  const raw = meta.ui;
  if (!isRecord(raw)) return { problem: 'its _meta.ui is not an object' };
  const { resourceUri, visibility } = raw;
  const ui: { resourceUri?: string; visibility?: ToolVisibility[] } = {};
  if (resourceUri !== undefined) {
    if (
      typeof resourceUri !== 'string' ||
      !resourceUri.startsWith(UI_SCHEME) ||
      resourceUri.length === UI_SCHEME.length ||
      resourceUri.length > MAX_RESOURCE_URI_CHARS ||
      neutralizeTags(cleanLine(resourceUri)) !== resourceUri
    ) {
      return {
        problem: `its _meta.ui.resourceUri is not a ui:// URI of at most ${MAX_RESOURCE_URI_CHARS} plain characters`,
      };
    }
    ui.resourceUri = resourceUri;
  }
  if (visibility !== undefined) {
    if (
      !Array.isArray(visibility) ||
      visibility.length === 0 ||
      !visibility.every((entry) => VISIBILITIES.includes(entry as ToolVisibility))
    ) {
      return { problem: 'its _meta.ui.visibility is not a non-empty list of "model" and "app"' };
    }
    ui.visibility = [...new Set(visibility as ToolVisibility[])];
  }
  return ui.resourceUri === undefined && ui.visibility === undefined ? {} : { ui };
}

/**
 * Whether a tool is for its server's app only (its `visibility` leaves out `model`): such a tool
 * is never given to a model, but stays callable by name, under the same approvals.
 *
 * @param tool - A tool from `adaptTools`.
 * @returns True when the model must not be offered it.
 * @example
 * ```ts
 * const forModel = tools.filter((tool) => !isAppOnly(tool));
 * ```
 */
export function isAppOnly(tool: { readonly ui?: ToolUi }): boolean {
  const visibility = tool.ui?.visibility;
  return visibility !== undefined && !visibility.includes('model');
}
