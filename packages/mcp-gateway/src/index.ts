export {
  createGateway,
  GATEWAY_APPROVALS,
  type Gateway,
  type GatewayApprovals,
  type GatewayOptions,
} from './gateway.js';
export { DEFAULT_TEXTS, type GatewayTexts } from './texts.js';
export { REVIEW_TOOL } from './review/review.js';
export { serveStdio, type StdioOptions } from './front/stdio.js';
export {
  serveHttp,
  startHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
  type ServeHttpOptions,
} from './front/http.js';
export { LIMITS } from './limits.js';
