import { checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, api.TransportErrorCode, import.meta.url);

  it('does not export internals of the sandbox', () => {
    for (const internal of [
      'resolvePolicy',
      'linuxMounts',
      'bwrapArgs',
      'seatbeltProfile',
      'sbplString',
      'findCommand',
      'runProbe',
      'gitConfigPaths',
      'protectedPaths',
      'hiddenPaths',
      'neverShown',
      'revealsFor',
      'quote',
    ]) {
      expect(Object.keys(api)).not.toContain(internal);
    }
  });

  it('exports the documented types', () => {
    // Compile-time check (tsc --noEmit covers test files).
    const kind: api.SandboxInfo['kind'] = 'bwrap';
    const info: api.SandboxInfo = { kind, command: '/usr/bin/bwrap' };
    const options: NonNullable<Parameters<typeof api.detectSandbox>[0]> = { timeoutMs: 1_000 };
    const code: api.TransportErrorCode = 'TRANSPORT_INVALID_POLICY';
    const policy: api.SandboxPolicy = {
      root: '/p',
      baseEnv: {},
      home: '/h',
      garudaHome: '/h/.garuda',
    };
    const command: ReturnType<typeof api.buildSandbox> = {
      command: 'x',
      args: [],
      env: {},
      cwd: '/',
      sandboxed: { kind: 'none', reason: 'r' },
    };
    const match: ReturnType<typeof api.hiddenPathOf> = {
      kind: 'credential',
      path: '/h/.kube',
      name: '.kube',
    };
    const message: api.MessageTooLargeError['kind'] = 'response';
    expect([kind, info, options, code, policy, command, match, message]).toHaveLength(8);
  });
});
