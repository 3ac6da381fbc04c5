// Which keys the manager's options have, and where the flat options of earlier versions went: a
// host that upgrades is told where a key moved instead of having it ignored.
import { isRecord } from '@garuda/internal';
import { InvalidOptionsError } from './errors.js';
import type { McpManagerOptions } from './options.js';

/** The options that are records of their own. */
type RecordName = 'rules' | 'tools' | 'storage' | 'sandbox' | 'timeouts' | 'remote' | 'elicitation';

/** Every key of the top level (a `Record` so that the compiler finds a missing one). */
const TOP_KEYS: Readonly<Record<keyof McpManagerOptions, true>> = {
  root: true,
  home: true,
  userHome: true,
  env: true,
  clientInfo: true,
  prompter: true,
  logger: true,
  servers: true,
  openBrowser: true,
  onStartStep: true,
  onChange: true,
  onServerLog: true,
  rules: true,
  tools: true,
  storage: true,
  sandbox: true,
  timeouts: true,
  remote: true,
  elicitation: true,
};

/** Every key of each record, in the order a message lists them. */
const RECORD_KEYS: {
  readonly [R in RecordName]-?: Readonly<Record<keyof NonNullable<McpManagerOptions[R]>, true>>;
} = {
  rules: { allow: true, ask: true, deny: true, approvalMode: true },
  tools: { exposure: true, startMode: true, enabledForSession: true },
  storage: {
    trustStore: true,
    tokenStorage: true,
    auditLog: true,
    userConfigFile: true,
    projectConfigFile: true,
    importConfigs: true,
  },
  sandbox: { info: true, readPaths: true, tempDirs: true, cacheDir: true, serverHomesDir: true },
  timeouts: { startMs: true, downloadMs: true },
  remote: { projectFetchOptions: true, clientMetadataUrl: true },
  elicitation: { perCall: true, perMinute: true, giveWayMs: true },
};

/** The flat options of earlier versions, and the place of each now. */
const MOVED: Readonly<Record<string, string>> = {
  allowRules: 'rules.allow',
  askRules: 'rules.ask',
  denyRules: 'rules.deny',
  approvalMode: 'rules.approvalMode',
  exposure: 'tools.exposure',
  startMode: 'tools.startMode',
  enabledForSession: 'tools.enabledForSession',
  trustStore: 'storage.trustStore',
  tokenStorage: 'storage.tokenStorage',
  auditLog: 'storage.auditLog',
  userConfigFile: 'storage.userConfigFile',
  projectConfigFile: 'storage.projectConfigFile',
  importConfigs: 'storage.importConfigs',
  sandboxReadPaths: 'sandbox.readPaths',
  tempDirs: 'sandbox.tempDirs',
  cacheDir: 'sandbox.cacheDir',
  serverHomesDir: 'sandbox.serverHomesDir',
  startTimeoutMs: 'timeouts.startMs',
  downloadTimeoutMs: 'timeouts.downloadMs',
  projectFetchOptions: 'remote.projectFetchOptions',
  clientMetadataUrl: 'remote.clientMetadataUrl',
};

function isRecordName(key: string): key is RecordName {
  return Object.hasOwn(RECORD_KEYS, key);
}

/**
 * Checks that the options have only keys the manager knows, and that each record is an object.
 * The values are checked by `checkOptions`.
 *
 * @param options - As the host passed them (an object).
 * @throws {@link InvalidOptionsError} naming the new place of a flat option of earlier versions
 *   (`allowRules` → `rules.allow`), or the keys a record takes.
 */
export function checkOptionsShape(options: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(MOVED, key)) {
      throw new InvalidOptionsError(key, `moved to ${MOVED[key] ?? ''}`);
    }
    if (!Object.hasOwn(TOP_KEYS, key)) {
      throw new InvalidOptionsError(
        key,
        `is not an option of McpManager (it takes ${Object.keys(TOP_KEYS).join(', ')})`,
      );
    }
    const value = options[key];
    if (!isRecordName(key) || value === undefined) continue;
    const keys = Object.keys(RECORD_KEYS[key]);
    const shape = `must be { ${keys.map((name) => `${name}?`).join(', ')} }`;
    if (!isRecord(value)) throw new InvalidOptionsError(key, shape);
    // Earlier versions took the detected sandbox itself as `sandbox`.
    if (key === 'sandbox' && 'kind' in value) {
      throw new InvalidOptionsError(key, `the detected sandbox moved to sandbox.info (${shape})`);
    }
    for (const inner of Object.keys(value)) {
      if (!keys.includes(inner)) {
        throw new InvalidOptionsError(`${key}.${inner}`, `is not an option: ${key} ${shape}`);
      }
    }
  }
}
