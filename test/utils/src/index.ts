/**
 * Shared test doubles for Garuda's packages: fixture MCP servers (stdio and Streamable HTTP),
 * a small OAuth authorization server with a bearer-protected MCP endpoint, a scripted browser,
 * and small helpers. Private, consumed from source by other workspaces' tests.
 */
export {
  FIXTURE_MODES,
  FIXTURE_SERVER,
  NORMAL_TOOL_NAMES,
  fixtureCommand,
  type EscapeAttempt,
  type EscapeReport,
  type FixtureCommand,
} from './fixture-server.js';
export { startHttpFixture, type HttpFixture, type HttpFixtureOptions } from './http-fixture.js';
export {
  LATE_TOOL,
  startListenLineFixture,
  type ListenLineFixture,
  type ListenLineFixtureOptions,
} from './listen-line-fixture.js';
export {
  INSECURE_AUTHORIZATION_HOST,
  OAUTH_DENY_DESCRIPTION,
  WRONG_ISSUER,
  startOAuthFixture,
  type OAuthFixture,
  type OAuthFixtureClient,
  type OAuthFixtureCounts,
  type OAuthFixtureOptions,
} from './oauth-fixture.js';
export {
  browserThatPastes,
  scriptedBrowser,
  type BrowserVisit,
  type PastingBrowser,
  type ScriptedBrowser,
  type ScriptedBrowserOptions,
} from './scripted-browser.js';
export { makeCertificate, type TestCertificate } from './certificate.js';
export { tempDir, tempUser, type TempDir, type TempUser } from './temp-dir.js';
export { useTempDir, type TestTempDir } from './use-temp-dir.js';
export { localDefaults, remoteDefaults } from './local-defaults.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { isProcessAlive, pidsWith } from './process-alive.js';
export {
  sandboxOutcomes,
  type SandboxErrorCode,
  type SandboxOutcomes,
  type SandboxRefusal,
} from './sandbox-outcomes.js';
export { secretServiceMissing, startSecretService, type SecretService } from './secret-service.js';
export { allStrings, hostileLeftovers } from './leftovers.js';
export { codeBlock, readmeSection } from './readme.js';
export {
  readmePrograms,
  readmeProgramsTest,
  type ReadmeProgram,
  type ReadmeProgramsOptions,
} from './readme-blocks.js';
export {
  QUICK_START_MAX_LINES,
  quickStartTest,
  type QuickStartTestOptions,
} from './quick-start.js';
export { checkPublicEntry } from './public-entry.js';
export {
  checkErrorCodes,
  checkErrorSamples,
  checkErrors,
  checkForeignCopies,
  type BrandedClass,
  type ErrorChecks,
  type ErrorSample,
} from './error-brands.js';
export { caught } from './caught.js';
export { RAW_INITIALIZE } from './raw-initialize.js';
export { cpuMsOf } from './cpu-time.js';
export { recordingLogger, type LogLevel, type RecordingLogger } from './recording-logger.js';
export {
  NodeChildren,
  runTogether,
  startNodeChild,
  type ChildExit,
  type ChildResult,
  type NodeChild,
} from './node-child.js';
export {
  ADDED_TOOL,
  ASKER_DEFAULTS,
  APP_DEFAULT_HTML,
  APP_MIME_TYPE,
  APP_RESOURCE_UI,
  APP_URI,
  ASKER_FORM,
  CHANGED_DIFF,
  CRASH_EXIT_CODE,
  ESCAPE_ATTEMPTS,
  EVIL_TOOL_NAME,
  EXIT_LATER_CODE,
  FIXTURE_SERVER_INFO,
  HOSTILE,
  HOSTILE_TEXT,
  HTTP_MODES as HTTP_FIXTURE_MODES,
  LIBRARY_PNG,
  LIBRARY_URIS,
  RELAY_META,
  RELAY_NAMES,
  RELAY_TEMPLATE,
  RELAY_TOPICS,
  LONG_TOOL_NAMES,
  MALFORMED_TOOL,
  MANY_TOOL_COUNT,
  RELATED_TASK_KEY,
  SMUGGLED_INSTRUCTION,
  TASKS_EXTENSION,
  TASK_POLLS_TO_COMPLETE,
  TASK_RESULT_TEXT,
  TASK_STATUS_TEXT,
  toTagCharacters,
  type EscapeAttemptName,
  type HttpFixtureMode,
  type StdioFixtureMode,
} from '../fixtures/tools.mjs';
