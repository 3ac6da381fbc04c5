import type { ServerConfig } from '@garuda/mcp-config';
import { localDefaults } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_MODES,
  modeRuns,
  riskTier,
  riskWarnings,
  type ApprovalMode,
} from './risk-tier.js';

function local(def: Record<string, unknown>): ServerConfig {
  return {
    kind: 'local',
    name: 'x',
    source: 'project',
    file: '/r/.garuda/mcp.json',
    env: {},
    def: { ...localDefaults('x'), ...def },
  } as ServerConfig;
}

describe('riskTier', () => {
  it.each([
    [undefined, 'high'],
    [[], 'high'],
    [['read'], 'low'],
    [['read', 'write'], 'high'],
    [['network'], 'high'],
    [['shell'], 'high'],
    [['untrusted_output'], 'high'],
    [['read', 'irreversible'], 'destructive'],
    [['irreversible'], 'destructive'],
  ] as const)('%j → %s', (capabilities, tier) => {
    expect(riskTier(capabilities)).toBe(tier);
  });
});

describe('modeRuns', () => {
  it('runs nothing in ask mode and never a destructive call', () => {
    for (const tier of ['low', 'high', 'destructive'] as const) {
      expect(modeRuns('ask', tier)).toBeUndefined();
    }
    for (const mode of ['ask', 'balanced', 'trusted'] as const) {
      expect(modeRuns(mode, 'destructive')).toBeUndefined();
    }
    expect(modeRuns('balanced', 'low')).toMatch(/balanced/);
    expect(modeRuns('balanced', 'high')).toBeUndefined();
    expect(modeRuns('trusted', 'high')).toMatch(/trusted/);
  });
});

describe('riskWarnings', () => {
  it('warns of a repository declaring its server read-only, and of declarations its definition contradicts', () => {
    expect(riskWarnings(local({}), true)).toEqual([]);
    expect(riskWarnings(local({ capabilities: ['read'] }), true)).toEqual([
      expect.stringContaining('the repository declares this server read-only'),
    ]);
    expect(riskWarnings(local({ capabilities: ['read'] }), false)).toEqual([]);
    expect(
      riskWarnings(local({ capabilities: ['read'], network: true, writePaths: ['/o'] }), false),
    ).toEqual([
      'it is not declared "network" but its sandbox lets it use the network',
      'it is not declared "write" but may write the folders in "writePaths"',
    ]);
  });
});

describe('APPROVAL_MODES', () => {
  // Compile-time: a mode added to ApprovalMode without a description here fails tsc (tests are
  // type-checked); the checks below catch an empty or multi-line one.
  const table: Readonly<Record<ApprovalMode, string>> = APPROVAL_MODES;

  it('describes every mode in one non-empty line, in a frozen table, from the most careful', () => {
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.keys(table)).toEqual(['ask', 'balanced', 'trusted']);
    for (const [mode, what] of Object.entries(table)) {
      expect(what.trim(), mode).not.toBe('');
      expect(what, mode).not.toMatch(/[\r\n]/);
    }
  });
});
