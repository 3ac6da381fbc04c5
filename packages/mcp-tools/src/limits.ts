// The package's limits and defaults, as one read-only record: the public name of each.
import {
  MAX_TOOLS_PER_SERVER,
  MAX_DESCRIPTION_CHARS,
  MAX_SCHEMA_CHARS,
  MAX_SCHEMA_DEPTH,
  MAX_SKIP_NOTICES,
} from './adapt-tools.js';
import { MAX_RAW_TOOL_NAME_CHARS } from './tool-shape.js';
import { MAX_TOOL_NAME_LENGTH } from './tool-name.js';
import { MAX_ATTRIBUTE_CHARS } from './content-text.js';
import { MAX_RESULT_CHARS } from './format-result.js';
import { MAX_CONTENT_BLOCKS } from './result-content.js';
import { MAX_FIELD_CHARS } from './list-view.js';
import { MAX_RESOURCES_PER_SERVER, MAX_RESOURCE_URI_CHARS } from './resource-view.js';
import { MAX_PROMPTS_PER_SERVER, MAX_PROMPT_ARGUMENTS } from './prompt-view.js';
import {
  MAX_PREVIEW_ARGUMENTS,
  MAX_PREVIEW_ARGUMENT_CHARS,
  MAX_PREVIEW_DEPTH,
  MAX_PREVIEW_NAME_CHARS,
} from './call-preview.js';
import { MAX_TOOL_SEARCH_QUERY_CHARS, MAX_TOOL_SEARCH_RESULTS } from './tool-search.js';
import { MAX_QUOTED_CHARS } from './quote-text.js';

/**
 * The limits and defaults of `@garuda/mcp-tools`, read-only. Each is the value the package
 * itself uses; an option that takes a different value says so in its own documentation.
 */
export const LIMITS = Object.freeze({
  /** How many tools of one server are given to the model by default. */
  maxToolsPerServer: MAX_TOOLS_PER_SERVER,
  /** The longest tool description given to the model (the untrusted-text prefix included). */
  maxDescriptionChars: MAX_DESCRIPTION_CHARS,
  /** The longest input schema given to the model, as JSON; a longer one skips the tool. */
  maxSchemaChars: MAX_SCHEMA_CHARS,
  /** The deepest nesting of an input schema; a deeper one skips the tool. */
  maxSchemaDepth: MAX_SCHEMA_DEPTH,
  /** How many skipped tools are named one notice each; the rest share one summary notice. */
  maxSkipNotices: MAX_SKIP_NOTICES,
  /** The longest tool name accepted from a server, in UTF-16 code units. */
  maxRawToolNameChars: MAX_RAW_TOOL_NAME_CHARS,
  /** The longest tool name given to a model. */
  maxToolNameLength: MAX_TOOL_NAME_LENGTH,
  /** The longest attribute value of a wrapper (a server, tool or prompt name, a URI), in code points. */
  maxAttributeChars: MAX_ATTRIBUTE_CHARS,
  /** The longest result text given to the model by default (inside the wrapper). */
  maxResultChars: MAX_RESULT_CHARS,
  /** The most content blocks given as typed data; the rest are counted in one `omitted` block. */
  maxContentBlocks: MAX_CONTENT_BLOCKS,
  /**
   * The longest one-line field of a listed resource, resource template or prompt (a name, a
   * title, a MIME type, a prompt argument's description), in code points.
   */
  maxFieldChars: MAX_FIELD_CHARS,
  /** How many resources (or resource templates) of one server are kept by default. */
  maxResourcesPerServer: MAX_RESOURCES_PER_SERVER,
  /** The longest resource URI or URI template taken from a server, in UTF-16 code units. */
  maxResourceUriChars: MAX_RESOURCE_URI_CHARS,
  /** How many prompts of one server are kept by default. */
  maxPromptsPerServer: MAX_PROMPTS_PER_SERVER,
  /** The most arguments a prompt may have; a prompt with more is skipped. */
  maxPromptArguments: MAX_PROMPT_ARGUMENTS,
  /** The most top-level arguments listed in a call preview; the rest are only counted. */
  maxPreviewArguments: MAX_PREVIEW_ARGUMENTS,
  /** The most characters of argument values in a call preview, all values together. */
  maxPreviewArgumentChars: MAX_PREVIEW_ARGUMENT_CHARS,
  /**
   * The deepest nesting shown inside one argument's value; deeper parts show as
   * `[nested too deeply]` (a person reads a preview: past this, indentation alone would fill it).
   */
  maxPreviewDepth: MAX_PREVIEW_DEPTH,
  /** The longest server, tool or argument name in a call preview, in code points. */
  maxPreviewNameChars: MAX_PREVIEW_NAME_CHARS,
  /** The longest query read, in characters; the rest is ignored. */
  maxToolSearchQueryChars: MAX_TOOL_SEARCH_QUERY_CHARS,
  /** The most hits one search returns (the model's `limit` is clamped to it). */
  maxToolSearchResults: MAX_TOOL_SEARCH_RESULTS,
  /** The longest quoted name in a notice or warning, in code points (before the closing quote). */
  maxQuotedChars: MAX_QUOTED_CHARS,
} as const);
