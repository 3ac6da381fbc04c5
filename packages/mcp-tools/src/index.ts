// Public entry of @garuda/mcp-tools: named re-exports only; anything not listed is internal.
export { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, toolName, toolPrefix } from './tool-name.js';
export { SERVER_ORIGINS, nameKey, promptName, promptPrefix, settleNames } from './name-clash.js';
export type { NameClaim, NameClash, NamePrefix, ServerOrigin, SettledNames } from './name-clash.js';
export {
  MAX_DESCRIPTION_CHARS,
  MAX_SCHEMA_CHARS,
  MAX_SCHEMA_DEPTH,
  MAX_SKIP_NOTICES,
  MAX_TOOLS_PER_SERVER,
  adaptTools,
  descriptionPrefix,
} from './adapt-tools.js';
export type { AdaptToolsOptions, AdaptToolsResult } from './adapt-tools.js';
export { MAX_RAW_TOOL_NAME_CHARS } from './tool-shape.js';
export { MAX_ATTRIBUTE_CHARS } from './content-text.js';
export { MAX_RESULT_CHARS, formatResult } from './format-result.js';
export type { FormatResultOptions } from './format-result.js';
export { MAX_CONTENT_BLOCKS } from './result-content.js';
export { MAX_FIELD_CHARS } from './list-view.js';
export {
  MAX_RESOURCES_PER_SERVER,
  MAX_RESOURCE_URI_CHARS,
  adaptResourceTemplates,
  adaptResources,
  formatResource,
} from './resource-view.js';
export type {
  AdaptResourceTemplatesResult,
  AdaptResourcesOptions,
  AdaptResourcesResult,
} from './resource-view.js';
export {
  MAX_PROMPTS_PER_SERVER,
  MAX_PROMPT_ARGUMENTS,
  adaptPrompts,
  formatPrompt,
} from './prompt-view.js';
export type { AdaptPromptsOptions, AdaptPromptsResult } from './prompt-view.js';
export type { CheckedUri, ResultContent } from './result-content.js';
export {
  MAX_PREVIEW_ARGUMENTS,
  MAX_PREVIEW_ARGUMENT_CHARS,
  MAX_PREVIEW_DEPTH,
  MAX_PREVIEW_NAME_CHARS,
  callPreview,
} from './call-preview.js';
export { callPreviewText, previewArgumentsText } from './call-preview-text.js';
export type { CallPreviewTextOptions } from './call-preview-text.js';
export {
  MAX_TOOL_SEARCH_QUERY_CHARS,
  MAX_TOOL_SEARCH_RESULTS,
  createToolIndex,
} from './tool-search.js';
export type { ToolIndex, ToolSearchHit, ToolSearchOptions } from './tool-search.js';
export {
  TOOL_PROXY_NAME,
  TOOL_SEARCH_NAME,
  formatToolSearchResult,
  toolProxyTool,
  toolSearchTool,
} from './tool-search-tools.js';
export type {
  FormatToolSearchResultOptions,
  ModelToolDefinition,
  ToolSearchToolOptions,
} from './tool-search-tools.js';
export { filterToolList } from './tool-list-filter.js';
export type { DroppedTool, FilterToolListOptions, ToolListDecision } from './tool-list-filter.js';
export { MAX_QUOTED_CHARS, capLine, groupDigits, quoteText } from './quote-text.js';
export { InvalidOptionError, McpToolsError, McpToolsErrorCode } from './errors.js';
export type {
  CallPreview,
  CallResult,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PreviewArgument,
  PreviewValue,
  PromptArgument,
  PromptMessage,
  PromptResult,
  ResourceContent,
  ResourceResult,
  UriRefusal,
} from './types.js';
