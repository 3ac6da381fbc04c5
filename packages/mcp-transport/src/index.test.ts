import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import type {
  DetectSandboxOptions,
  HiddenPathMatch,
  MessageKind,
  SandboxInfo,
  SandboxKind,
  SandboxPolicy,
  SandboxedCommand,
  TransportErrorCode,
} from './index.js';

// The whole public surface, as documented in README.md.
const SANDBOX_VALUES = [
  'DEFAULT_MAX_MESSAGE_BYTES',
  'MessageTooLargeError',
  'ProcessExitedError',
  'ProcessTransport',
  'ResponseTooLargeError',
  'SpawnFailedError',
  'TransportClosedError',
  'createCappedFetch',
  'createHttpTransport',
  'HIDDEN_HOME_PATHS',
  'HIDDEN_SYSTEM_PATHS',
  'InvalidOptionsError',
  'InvalidPolicyError',
  'SANDBOX_ENV_ALLOWLIST',
  'TransportError',
  'TransportErrorCode',
  'UnprotectablePathError',
  'WINDOWS_ENV_ALLOWLIST',
  'buildSandbox',
  'clearSandboxCache',
  'detectSandbox',
  'hiddenPathOf',
  'sandboxEnv',
];

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([...SANDBOX_VALUES].sort());
  });

  it('is a list of named re-exports (no export *)', () => {
    const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/export\s*\*/);
  });

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
    const kind: SandboxKind = 'bwrap';
    const info: SandboxInfo = { kind, command: '/usr/bin/bwrap' };
    const options: DetectSandboxOptions = { timeoutMs: 1_000 };
    const code: TransportErrorCode = 'INVALID_POLICY';
    const policy: SandboxPolicy = { root: '/p', baseEnv: {}, home: '/h', garudaHome: '/h/.garuda' };
    const command: SandboxedCommand = {
      command: 'x',
      args: [],
      env: {},
      cwd: '/',
      sandboxed: { kind: 'none', reason: 'r' },
    };
    const match: HiddenPathMatch = { kind: 'credential', path: '/h/.kube', name: '.kube' };
    const message: MessageKind = 'response';
    expect([kind, info, options, code, policy, command, match, message]).toHaveLength(8);
  });
});
