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
export { serveStdio, type StdioOptions } from './front/stdio.js';
export {
  serveHttp,
  startHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
  type HttpTimeouts,
  type ServeHttpOptions,
} from './front/http.js';
export { LIMITS } from './limits.js';
