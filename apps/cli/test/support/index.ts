// What the CLI's tests share: a throwaway world to run the built command in, and the pieces a
// host plays by hand.
export { BIN, EVERYTHING, FETCH_BROWSER, REPO_ROOT } from './paths.js';
export {
  auditCalls,
  callRound,
  expectFinalError,
  framedJson,
  questionOf,
  questionsStayWithTheirCalls,
  RAW_INITIALIZE,
  type Round,
} from './rounds.js';
export { collect, type RunResult } from './run.js';
export { CliTerminal, type TerminalPlace } from './terminal.js';
export { CliWorld, fixtureEntry, osSandboxed, worldPerTest } from './world.js';
export { plain, terminalsPerTest, type OnTerminal } from './tty.js';
export {
  askingClient,
  cancelStopsTheCall,
  gatewaysPerTest,
  httpClient,
  raw,
  type HttpGateway,
} from './http-gateway.js';
export {
  hostsPerTest,
  textOf,
  toolsWhen,
  type Answer,
  type HostOptions,
  type Reply,
  type ServeHost,
} from './serve-host.js';
export { everything, framed, gatewayUri } from './everything.js';
export { backupsOf } from './backups.js';
