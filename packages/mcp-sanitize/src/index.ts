export { cleanText, cleanLine } from './clean-text.js';
export { capText } from './cap-text.js';
export { cleanJson } from './clean-json.js';
export type { CleanJsonOptions, JsonValue } from './clean-json.js';
export { neutralizeTags, compileTags, DEFAULT_TAGS } from './neutralize-tags.js';
export { UrlRefusalCode, checkUrl, isLoopbackHostname } from './check-url.js';
export type { CheckUrlOptions, UrlVerdict } from './check-url.js';
export { SanitizeError, SanitizeErrorCode } from './errors.js';
export { LIMITS } from './limits.js';
