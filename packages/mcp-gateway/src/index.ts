export {
  createGateway,
  GATEWAY_APPROVALS,
  type Gateway,
  type GatewayApprovals,
  type GatewayManagerHooks,
  type GatewayOptions,
  type ListChange,
} from './gateway.js';
export { DEFAULT_TEXTS, type GatewayTexts } from './texts.js';
export { hostToolName } from './offer/tools.js';
export { hostResourceUri } from './offer/resources.js';
export { REVIEW_TOOL } from './review/review.js';
export { DEFAULT_ANSWER_TIMEOUT_MS, MAX_ANSWER_TIMEOUT_MS } from './questions/conversations.js';
export { serveStdio, type StdioOptions } from './front/stdio.js';
export {
  HTTP_TIMEOUTS,
  MAX_HTTP_BODY_BYTES,
  MAX_HTTP_IN_FLIGHT,
  serveHttp,
  startHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
  type HttpTimeouts,
  type ServeHttpOptions,
} from './front/http.js';
