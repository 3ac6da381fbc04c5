export { cleanText, cleanLine } from './clean-text.js';
export { capText } from './cap-text.js';
export { cleanJson, JSON_MARKERS } from './clean-json.js';
export type { CleanJsonOptions, JsonValue } from './clean-json.js';
export {
  neutralizeTags,
  compileTags,
  DEFAULT_TAGS,
  MAX_TAGS,
  NEUTRAL_BRACKET,
} from './neutralize-tags.js';
export type { TagList } from './neutralize-tags.js';
export { MAX_URL_LENGTH, UrlRefusalCode, checkUrl, isLoopbackHostname } from './check-url.js';
export type { CheckUrlOptions, UrlUse, UrlVerdict } from './check-url.js';
export { SanitizeError, SanitizeErrorCode } from './errors.js';
