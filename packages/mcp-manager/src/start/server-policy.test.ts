import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { USER_SCOPE } from '@garuda/mcp-oauth';
import { mcpTrustKey } from '@garuda/mcp-trust';
import { describe, expect, it } from 'vitest';
import {
  policyFetch,
  serverPolicy,
  storedSignInPolicy,
  type ServerPolicy,
} from './server-policy.js';

const ROOT = '/work/project';

/** Every decision of the policy, one row each: a user's server's, then a project's. */
const DECISIONS: readonly (readonly [keyof ServerPolicy, unknown, unknown])[] = [
  ['source', 'user', 'project'],
  [
    'trustKey',
    mcpTrustKey({ kind: 'user' }, 'gh'),
    mcpTrustKey({ kind: 'project', root: ROOT }, 'gh'),
  ],
  ['askConsent', false, true],
  ['unreadableStore', 'unpinned', 'fail'],
  ['toolChange', 'announce', 'ask'],
  ['fetch', 'global', 'pinned'],
  ['allowHttpLoopback', true, false],
  ['signInScope', USER_SCOPE, ROOT],
  ['engineSocketFromEnv', true, false],
  ['home', 'by-name', 'by-project'],
];

describe('serverPolicy', () => {
  it("a user's own server: no consent, announced changes, the global fetch, http on loopback", () => {
    expect(serverPolicy({ name: 'gh', source: 'user' }, ROOT)).toEqual(
      Object.fromEntries(DECISIONS.map(([field, user]) => [field, user])),
    );
  });

  it("a project's server: consent, asked changes, the pinned fetch, https only, its own scope", () => {
    expect(serverPolicy({ name: 'gh', source: 'project' }, ROOT)).toEqual(
      Object.fromEntries(DECISIONS.map(([field, , project]) => [field, project])),
    );
  });

  it('is a frozen plain object', () => {
    const policy = serverPolicy({ name: 'gh', source: 'project' }, ROOT);
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it("a server known only from stored sign-ins is the user's only when all of them are", () => {
    expect(storedSignInPolicy('x', [USER_SCOPE], ROOT).fetch).toBe('global');
    expect(storedSignInPolicy('x', [USER_SCOPE, ROOT], ROOT).fetch).toBe('pinned');
    expect(storedSignInPolicy('x', [ROOT], ROOT).allowHttpLoopback).toBe(false);
  });

  it('policyFetch gives the strict fetch exactly when the policy says pinned', () => {
    const pinned = (() => Promise.reject(new Error('pinned'))) as unknown as typeof fetch;
    const project = serverPolicy({ name: 'x', source: 'project' }, ROOT);
    const user = serverPolicy({ name: 'x', source: 'user' }, ROOT);
    expect(policyFetch(project, pinned)).toBe(pinned);
    expect(policyFetch(user, pinned)).not.toBe(pinned);
  });
});

describe('one place for the user-versus-project decisions', () => {
  // Files that only report where a server comes from (a status row, the consent screen, the
  // file a suggested command edits); every decision reads the policy instead.
  const REPORTING = new Set(['status.ts', 'consent-request.ts', 'sandbox-denial-note.ts']);

  it('no other source file of the manager tests a server’s source', () => {
    // Every room of src/, not only this test's own folder.
    const dir = path.join(import.meta.dirname, '..');
    const offenders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => {
        const name = path.basename(file);
        return name !== 'server-policy.ts' && !REPORTING.has(name);
      })
      .filter((file) =>
        /\bsource\s*[!=]==\s*'(?:user|project)'/.test(readFileSync(path.join(dir, file), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });
});
