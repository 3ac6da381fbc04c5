// Public entry of @garuda/mcp-tools: named re-exports only; anything not listed is internal.
export { promptName, promptPrefix, toolName, toolPrefix } from './tool-name.js';
export { adaptTools } from './adapt-tools.js';
export type { AdaptToolsOptions } from './adapt-tools.js';
export { isAppOnly } from './tool-ui.js';
export type { ToolUi, ToolVisibility } from './tool-ui.js';
export { formatResult } from './format-result.js';
export type { FormatResultOptions } from './format-result.js';
export { adaptResourceTemplates, adaptResources, formatResource } from './resource-view.js';
export { adaptPrompts, formatPrompt } from './prompt-view.js';
export { callPreview } from './call-preview.js';
export { callPreviewText } from './call-preview-text.js';
export type { CallPreviewTextOptions } from './call-preview-text.js';
export { createToolIndex } from './tool-search.js';
export type { ToolIndex, ToolSearchOptions } from './tool-search.js';
export {
  TOOL_PROXY_NAME,
  TOOL_SEARCH_NAME,
  formatToolSearchResult,
  toolProxyTool,
  toolSearchTool,
} from './tool-search-tools.js';
export type { ModelToolDefinition } from './tool-search-tools.js';
export { filterToolList } from './tool-list-filter.js';
export type { FilterToolListOptions } from './tool-list-filter.js';
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
export { LIMITS } from './limits.js';
