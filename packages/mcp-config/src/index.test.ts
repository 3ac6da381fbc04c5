import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import type {
  AddServerOptions,
  AddServerResult,
  CheckServerUrlResult,
  ConfigErrorCode,
  ConfigProblem,
  ConfigProblemCode,
  DefaultPaths,
  DefaultPathsOptions,
  DroppedField,
  EnvSource,
  ExpandEnvOptions,
  ExpandEnvResult,
  ExpandProblem,
  ExpandProblemCode,
  LoadConfigOptions,
  LoadConfigResult,
  LocalServerConfig,
  LocalServerDef,
  LocalServerEntry,
  OAuthSettings,
  RemoteServerConfig,
  RemoteServerDef,
  RemoteServerEntry,
  RemoveServerOptions,
  RemoveServerResult,
  ResolvedValue,
  ServerConfig,
  ServerDef,
  ServerEntry,
  ServerSource,
  SetServerEnabledOptions,
  SetServerEnabledResult,
  UrlProblemCode,
} from './index.js';

// The public surface, as documented in README.md. Adding or removing an export is a deliberate
// change: update the README and this list together.
const DOCUMENTED_VALUES = [
  'ConfigError',
  'ConfigErrorCode',
  'ConfigProblemCode',
  'FileUnusableError',
  'IMPORT_CLIENTS',
  'ImportNoteCode',
  'InvalidServerError',
  'MAX_CONFIG_BYTES',
  'MAX_IMPORT_FILE_BYTES',
  'ServerEntryError',
  'addServer',
  'checkServerUrl',
  'commandLine',
  'defHash',
  'defaultPaths',
  'expandEnv',
  'formatProblem',
  'importSourceFiles',
  'isHttp',
  'loadConfig',
  'looksSecretName',
  'looksSecretValue',
  'readImportSources',
  'removeServer',
  'setServerEnabled',
];

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...DOCUMENTED_VALUES].sort());
  });

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const source: ServerSource = 'user';
    const local: LocalServerEntry = { command: 'x' };
    const remote: RemoteServerEntry = { url: 'https://a.example', oauth: { scopes: ['s'] } };
    const entry: ServerEntry = local;
    const oauth: OAuthSettings = { clientId: 'c' };
    const envSource: EnvSource = { kind: 'vars', names: ['A'], missing: [] };
    const resolved: ResolvedValue = { value: 'a', source: envSource };
    const problemCode: ConfigProblemCode = 'INVALID_JSON';
    const urlCode: UrlProblemCode = 'URL_SCHEME';
    const expandCode: ExpandProblemCode = 'MISSING_VARIABLE';
    const errorCode: ConfigErrorCode = 'NOT_FOUND';
    const problem: ConfigProblem = { code: problemCode, file: '/f', message: 'm' };
    const expandProblem: ExpandProblem = { code: expandCode, key: 'A', message: 'm' };
    const expandOptions: ExpandEnvOptions = { kind: 'header' };
    const pathsOptions: DefaultPathsOptions = { home: '/h', root: '/r' };
    const loadOptions: LoadConfigOptions = { env: {} };
    const addOptions: AddServerOptions = { file: '/f', name: 'n', def: entry, source };
    const removeOptions: RemoveServerOptions = { file: '/f', name: 'n' };
    const enableOptions: SetServerEnabledOptions = { file: '/f', name: 'n', enabled: false };
    const enableResult: SetServerEnabledResult = { ...enableOptions, changed: true };
    const dropped: DroppedField = { field: 'env', reason: 'other-kind' };
    const localDef: LocalServerDef = {
      kind: 'local',
      command: 'x',
      args: [],
      env: {},
      network: false,
      writePaths: [],
      readPaths: [],
      timeoutMs: 1000,
      enabled: true,
    };
    const remoteDef: RemoteServerDef = {
      kind: 'remote',
      type: 'http',
      url: 'https://a.example',
      headers: {},
      timeoutMs: 1000,
      enabled: true,
    };
    const def: ServerDef = remoteDef;
    const localConfig: LocalServerConfig = {
      kind: 'local',
      name: 'n',
      source,
      file: '/f',
      def: localDef,
      env: { A: resolved },
    };
    const remoteConfig: RemoteServerConfig = {
      kind: 'remote',
      name: 'n',
      source,
      file: '/f',
      def: remoteDef,
      url: new URL(remoteDef.url),
      headers: {},
    };
    const config: ServerConfig = localConfig;
    const loadResult: LoadConfigResult = { servers: [config, remoteConfig], problems: [problem] };
    const urlResult: CheckServerUrlResult = api.checkServerUrl('https://a.example', source);
    const expandResult: ExpandEnvResult = api.expandEnv({}, {});
    const paths: DefaultPaths = api.defaultPaths(pathsOptions);
    const addResult: AddServerResult | undefined = undefined;
    const removeResult: RemoveServerResult | undefined = undefined;
    expect([
      remote,
      oauth,
      expandProblem,
      expandOptions,
      loadOptions,
      addOptions,
      removeOptions,
      def,
      enableResult,
      dropped,
    ]).toHaveLength(10);
    expect([
      loadResult,
      urlResult.ok,
      expandResult.problems,
      paths.userFile,
      addResult,
      removeResult,
    ]).toHaveLength(6);
    expect(errorCode).toBe(api.ConfigErrorCode.NOT_FOUND);
    expect(urlCode).toBe(api.ConfigProblemCode.URL_SCHEME);
  });

  it('has a sane size limit', () => {
    expect(api.MAX_CONFIG_BYTES).toBe(1024 * 1024);
  });
});
