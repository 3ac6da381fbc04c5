/**
 * What `garuda-mcp demo` bundles from the test doubles: the small OAuth server, the scripted
 * browser and the escape attempts. A subpath of its own, so the CLI's bundle takes these modules
 * only, not the index, whose test helpers import vitest (tsup would pull vitest's chunks in).
 */
export { startOAuthFixture, type OAuthFixture } from './oauth-fixture.js';
export { scriptedBrowser } from './scripted-browser.js';
export { type EscapeReport } from './fixture-server.js';
export { ESCAPE_ATTEMPTS } from '../fixtures/tools.mjs';
