import { checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import type { CheckServerUrlResult } from './check-server-url.js';
import type { DefaultPathsOptions } from './default-paths.js';
import type {
  ExpandEnvOptions,
  ExpandEnvResult,
  ExpandProblem,
  ExpandProblemCode,
} from './expand-env.js';
import type { RemoveServerOptions, RemoveServerResult } from './remove-server.js';
import type { DroppedField } from './replace-entry.js';
import type {
  LocalServerDef,
  LocalServerEntry,
  OAuthSettings,
  RemoteServerDef,
  RemoteServerEntry,
} from './server-types.js';
import type { SetServerEnabledOptions, SetServerEnabledResult } from './set-server-enabled.js';

describe('public entry', () => {
  checkPublicEntry(api, api.ConfigErrorCode, import.meta.url);

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files): each type is importable and usable.
    const source: api.ServerSource = 'user';
    const local: LocalServerEntry = { command: 'x' };
    const remote: RemoteServerEntry = { url: 'https://a.example', oauth: { scopes: ['s'] } };
    const entry: api.ServerEntry = local;
    const oauth: OAuthSettings = { clientId: 'c' };
    const envSource: api.EnvSource = { kind: 'vars', names: ['A'], missing: [] };
    const resolved: api.ResolvedValue = { value: 'a', source: envSource };
    const problemCode: api.ConfigProblemCode = 'INVALID_JSON';
    const urlCode: api.UrlProblemCode = 'URL_SCHEME';
    const expandCode: ExpandProblemCode = 'MISSING_VARIABLE';
    const errorCode: api.ConfigErrorCode = 'CONFIG_NOT_FOUND';
    const problem: api.ConfigProblem = { code: problemCode, file: '/f', message: 'm' };
    const expandProblem: ExpandProblem = { code: expandCode, key: 'A', message: 'm' };
    const expandOptions: ExpandEnvOptions = { kind: 'header' };
    const pathsOptions: DefaultPathsOptions = { home: '/h', root: '/r' };
    const loadOptions: api.LoadConfigOptions = { env: {} };
    const addOptions: api.AddServerOptions = { file: '/f', name: 'n', def: entry, source };
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
    const def: api.ServerDef = remoteDef;
    const localConfig: api.LocalServerConfig = {
      kind: 'local',
      name: 'n',
      source,
      file: '/f',
      def: localDef,
      env: { A: resolved },
    };
    const remoteConfig: api.RemoteServerConfig = {
      kind: 'remote',
      name: 'n',
      source,
      file: '/f',
      def: remoteDef,
      url: new URL(remoteDef.url),
      headers: {},
    };
    const config: api.ServerConfig = localConfig;
    const loadResult: api.LoadConfigResult = {
      servers: [config, remoteConfig],
      problems: [problem],
    };
    const urlResult: CheckServerUrlResult = api.checkServerUrl('https://a.example', source);
    const expandResult: ExpandEnvResult = api.expandEnv({}, {});
    const paths: api.DefaultPaths = api.defaultPaths(pathsOptions);
    const addResult: api.AddServerResult | undefined = undefined;
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
    expect(api.LIMITS.maxConfigBytes).toBe(1024 * 1024);
  });
});
