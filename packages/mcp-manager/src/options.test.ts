import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from './errors.js';
import { checkOptions, type McpManagerOptions } from './options.js';
import { MINIMAL_OPTIONS } from '../test/support/options.js';

/** What every host gives (nothing starts: these tests only check options). */
const BASE: McpManagerOptions = MINIMAL_OPTIONS;

/** The error `checkOptions` throws for `given` over {@link BASE}. */
function refusal(given: Record<string, unknown>): InvalidOptionsError {
  try {
    checkOptions({ ...BASE, ...given } as never);
  } catch (error) {
    if (InvalidOptionsError.isInstance(error)) return error as InvalidOptionsError;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(given)}`);
}

describe('the option records', () => {
  it('with none given, every default holds', () => {
    const checked = checkOptions(BASE);
    expect(checked.rules).toEqual({ allow: [], ask: [], deny: [] });
    expect(checked.approvalMode).toBe('ask');
    expect(checked.exposure).toBe('direct');
    expect(checked.startMode).toBe('eager');
    expect(checked.enabledForSession.size).toBe(0);
    expect(checked.tokenStorage).toBe('file');
    expect(checked.auditLog).toEqual({ includeText: false });
    expect(checked.trustStore).toBeUndefined();
    expect(checked.sandbox).toBeUndefined();
    expect(checked.sandboxReadPaths).toEqual([]);
    expect(checked.cacheDir).toBe('/tmp/home/.cache/garuda-mcp');
    expect(checked.serverHomesDir).toBe('/tmp/home/.local/share/garuda-mcp/servers');
    expect(checked.startTimeoutMs).toBe(30_000);
    expect(checked.downloadTimeoutMs).toBe(300_000);
    expect(checked.projectFetchOptions).toEqual({});
    expect(checked.clientMetadataUrl).toBeUndefined();
  });

  it('rules: allow, ask, deny and the approval mode', () => {
    const checked = checkOptions({
      ...BASE,
      rules: {
        allow: ['mcp.docs.*'],
        ask: ['mcp.*.write'],
        deny: ['mcp.x.*'],
        approvalMode: 'balanced',
      },
    });
    expect(checked.rules).toEqual({
      allow: ['mcp.docs.*'],
      ask: ['mcp.*.write'],
      deny: ['mcp.x.*'],
    });
    expect(checked.approvalMode).toBe('balanced');
    expect(refusal({ rules: { deny: 'mcp.*' } }).option).toBe('rules.deny');
    expect(refusal({ rules: { approvalMode: 'yolo' } }).option).toBe('rules.approvalMode');
  });

  it('tools: exposure, start mode, servers on or off for the session', () => {
    const checked = checkOptions({
      ...BASE,
      tools: { exposure: 'search', startMode: 'lazy', enabledForSession: { docs: false } },
    });
    expect(checked.exposure).toBe('search');
    expect(checked.startMode).toBe('lazy');
    expect([...checked.enabledForSession]).toEqual([['docs', false]]);
    expect(refusal({ tools: { exposure: 'all' } }).option).toBe('tools.exposure');
    expect(refusal({ tools: { startMode: 'later' } }).option).toBe('tools.startMode');
    expect(refusal({ tools: { enabledForSession: { docs: 'no' } } }).option).toBe(
      'tools.enabledForSession',
    );
  });

  it('storage: trust store, tokens, audit log, config files, imported configs', () => {
    const trustStore = { get: () => undefined, update: () => {}, delete: () => {} } as never;
    const checked = checkOptions({
      ...BASE,
      storage: {
        trustStore,
        tokenStorage: 'session',
        auditLog: false,
        userConfigFile: 'user.json',
        projectConfigFile: '/tmp/project/mcp.json',
        importConfigs: ['claude', 'claude'],
      },
    });
    expect(checked.trustStore).toBe(trustStore);
    expect(checked.tokenStorage).toBe('session');
    expect(checked.auditLog).toBe(false);
    expect(checked.userConfigFile).toBe(`${process.cwd()}/user.json`);
    expect(checked.projectConfigFile).toBe('/tmp/project/mcp.json');
    expect(checked.importConfigs).toEqual(['claude']);
    expect(refusal({ storage: { trustStore: {} } }).option).toBe('storage.trustStore');
    expect(refusal({ storage: { tokenStorage: 'disk' } }).option).toBe('storage.tokenStorage');
    expect(refusal({ storage: { auditLog: 'on' } }).option).toBe('storage.auditLog');
    expect(refusal({ storage: { userConfigFile: '' } }).option).toBe('storage.userConfigFile');
    expect(refusal({ storage: { importConfigs: ['cursor'] } }).option).toBe(
      'storage.importConfigs',
    );
  });

  it('sandbox: the detected sandbox and the folders it gives servers', () => {
    const info = { kind: 'none', reason: 'not installed' } as const;
    const checked = checkOptions({
      ...BASE,
      sandbox: {
        info,
        readPaths: ['/opt/tools'],
        tempDirs: ['/tmp/scratch'],
        cacheDir: '/tmp/cache',
        serverHomesDir: '/tmp/homes',
      },
    });
    expect(checked.sandbox).toBe(info);
    expect(checked.sandboxReadPaths).toEqual(['/opt/tools']);
    expect(checked.tempDirs).toEqual(['/tmp/scratch']);
    expect(checked.cacheDir).toBe('/tmp/cache');
    expect(checked.serverHomesDir).toBe('/tmp/homes');
    expect(refusal({ sandbox: { info: { kind: 'jail' } } }).option).toBe('sandbox.info');
    expect(refusal({ sandbox: { readPaths: ['/opt', '/tmp/home/.ssh'] } }).option).toBe(
      'sandbox.readPaths[1]',
    );
    expect(refusal({ sandbox: { tempDirs: '/tmp' } }).option).toBe('sandbox.tempDirs');
    expect(refusal({ sandbox: { cacheDir: '/tmp/home/.garuda/cache' } }).option).toBe(
      'sandbox.cacheDir',
    );
    expect(refusal({ sandbox: { serverHomesDir: '/tmp/home/.ssh/x' } }).option).toBe(
      'sandbox.serverHomesDir',
    );
  });

  it('timeouts: the start and the download step', () => {
    const checked = checkOptions({ ...BASE, timeouts: { startMs: 5_000, downloadMs: 60_000 } });
    expect(checked.startTimeoutMs).toBe(5_000);
    expect(checked.downloadTimeoutMs).toBe(60_000);
    expect(refusal({ timeouts: { startMs: 0 } }).option).toBe('timeouts.startMs');
    expect(refusal({ timeouts: { downloadMs: 600_001 } }).option).toBe('timeouts.downloadMs');
  });

  it("remote: the project fetch's options and the client metadata URL", () => {
    const url = 'https://agent.example/oauth/client.json';
    const checked = checkOptions({
      ...BASE,
      remote: { projectFetchOptions: { connectTimeoutMs: 1_000 }, clientMetadataUrl: url },
    });
    expect(checked.projectFetchOptions).toEqual({ connectTimeoutMs: 1_000 });
    expect(checked.clientMetadataUrl).toBe(url);
    expect(refusal({ remote: { projectFetchOptions: 'no' } }).option).toBe(
      'remote.projectFetchOptions',
    );
    expect(refusal({ remote: { clientMetadataUrl: 'http://x.example/c' } }).option).toBe(
      'remote.clientMetadataUrl',
    );
  });

  it.each(['rules', 'tools', 'storage', 'sandbox', 'timeouts', 'remote', 'elicitation'])(
    '%s: an unknown key or a value that is not an object is named, with the keys it takes',
    (record) => {
      const unknown = refusal({ [record]: { typo: 1 } });
      expect(unknown.option).toBe(`${record}.typo`);
      expect(unknown.message).toMatch(
        new RegExp(`is not an option: ${record} must be \\{ \\w+\\?`),
      );
      expect(refusal({ [record]: 'yes' }).option).toBe(record);
    },
  );

  it('an unknown top-level key is refused with the keys the manager takes', () => {
    const error = refusal({ rule: { allow: ['mcp.*'] } });
    expect(error.option).toBe('rule');
    expect(error.message).toContain('is not an option of McpManager (it takes root, home,');
  });
});

describe('the flat options of earlier versions', () => {
  it.each([
    ['allowRules', 'rules.allow'],
    ['askRules', 'rules.ask'],
    ['denyRules', 'rules.deny'],
    ['approvalMode', 'rules.approvalMode'],
    ['exposure', 'tools.exposure'],
    ['startMode', 'tools.startMode'],
    ['enabledForSession', 'tools.enabledForSession'],
    ['trustStore', 'storage.trustStore'],
    ['tokenStorage', 'storage.tokenStorage'],
    ['auditLog', 'storage.auditLog'],
    ['userConfigFile', 'storage.userConfigFile'],
    ['projectConfigFile', 'storage.projectConfigFile'],
    ['importConfigs', 'storage.importConfigs'],
    ['sandboxReadPaths', 'sandbox.readPaths'],
    ['tempDirs', 'sandbox.tempDirs'],
    ['cacheDir', 'sandbox.cacheDir'],
    ['serverHomesDir', 'sandbox.serverHomesDir'],
    ['startTimeoutMs', 'timeouts.startMs'],
    ['downloadTimeoutMs', 'timeouts.downloadMs'],
    ['projectFetchOptions', 'remote.projectFetchOptions'],
    ['clientMetadataUrl', 'remote.clientMetadataUrl'],
  ])('%s says it moved to %s', (old, now) => {
    // Even a value that would have been fine is refused: a host that upgrades is told.
    const error = refusal({ [old]: undefined });
    expect(error.option).toBe(old);
    expect(error.message).toBe(`invalid option ${old}: moved to ${now}`);
  });

  it('the detected sandbox given as `sandbox` itself says it moved to sandbox.info', () => {
    const error = refusal({ sandbox: { kind: 'none', reason: 'not installed' } });
    expect(error.option).toBe('sandbox');
    expect(error.message).toContain('the detected sandbox moved to sandbox.info');
  });
});
