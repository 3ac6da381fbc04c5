// The test doubles the demo runs on, loaded only by the demo (a chunk of its own in dist, so the
// other commands never load them): the small OAuth server with its protected MCP endpoint, and
// the scripted browser. tsup bundles them from @garuda/test-utils, which is not shipped, through
// its `demo` subpath (its index would bring vitest's chunks into dist).
export {
  ESCAPE_ATTEMPTS,
  scriptedBrowser,
  startOAuthFixture,
  type EscapeReport,
  type OAuthFixture,
} from '@garuda/test-utils/demo';
export { POISONED_DESCRIPTION, POISONED_TOOL } from './poisoned-tool.js';
