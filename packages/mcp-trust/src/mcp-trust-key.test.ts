import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MCP_TRUST_PREFIX,
  mcpTrustKey,
  mcpTrustPrefix,
  parseMcpTrustKey,
} from './mcp-trust-key.js';
import { MAX_KEY_LENGTH } from './validate-key.js';

const user = { kind: 'user' } as const;
const project = (root: string) => ({ kind: 'project', root }) as const;

describe('mcpTrustKey', () => {
  it('gives user and project servers distinct, readable keys', () => {
    expect(mcpTrustKey(user, 'github')).toBe('mcp::user::github');
    expect(mcpTrustKey(project('/home/ana/app'), 'github')).toBe(
      'mcp::project::/home/ana/app::github',
    );
    expect(mcpTrustKey(project('/home/ana/app'), 'github')).not.toBe(mcpTrustKey(user, 'github'));
  });

  it('makes the root absolute and normalised', () => {
    expect(mcpTrustKey(project('.'), 'x')).toBe(mcpTrustKey(project(process.cwd()), 'x'));
    expect(mcpTrustKey(project('/a/b/../c/'), 'x')).toBe(mcpTrustKey(project('/a/c'), 'x'));
    expect(mcpTrustKey(project('rel'), 'x')).toBe(
      mcpTrustKey(project(path.join(process.cwd(), 'rel')), 'x'),
    );
  });

  it('encodes "::" and "%" in a root so paths cannot collide', () => {
    // Without encoding, root "/a::b" + name "c" and root "/a" + name "b::c" would meet.
    expect(mcpTrustKey(project('/a::b'), 'c')).not.toBe(mcpTrustKey(project('/a'), 'b::c'));
    expect(mcpTrustKey(project('/a::b'), 'c')).toBe('mcp::project::/a%3A%3Ab::c');
    expect(mcpTrustKey(project('/a%3A'), 'c')).not.toBe(mcpTrustKey(project('/a:'), 'c'));
    expect(mcpTrustKey(project('/a\nb'), 'c')).toBe('mcp::project::/a%0Ab::c');
  });

  it("property: a project server never gets a user key or another project's key", () => {
    const segment = fc.string({
      unit: fc.constantFrom('a', ':', '%', '/', '\n', 'é', '#', '3', 'A'),
    });
    fc.assert(
      fc.property(segment, segment, segment, segment, (r1, n1, r2, n2) => {
        fc.pre(n1 !== '' && n2 !== '' && !/[\n]/.test(n1) && !/[\n]/.test(n2));
        const root1 = `/${r1}`;
        const root2 = `/${r2}`;
        const k1 = mcpTrustKey(project(root1), n1);
        expect(k1.startsWith(mcpTrustPrefix(user))).toBe(false);
        expect(k1.startsWith(mcpTrustPrefix(project(root1)))).toBe(true);
        if (path.resolve(root1) !== path.resolve(root2)) {
          expect(k1.startsWith(mcpTrustPrefix(project(root2)))).toBe(false);
          expect(k1).not.toBe(mcpTrustKey(project(root2), n2));
        } else if (n1 !== n2) {
          expect(k1).not.toBe(mcpTrustKey(project(root2), n2));
        }
        expect(parseMcpTrustKey(k1)).toEqual({
          kind: 'project',
          root: path.resolve(root1),
          name: n1,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a very long root within the key limit, still distinct per root', () => {
    const long = `/${'é'.repeat(900)}`;
    const k1 = mcpTrustKey(project(long), 'x');
    const k2 = mcpTrustKey(project(`${long}2`), 'x');
    expect(k1.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(k1).not.toBe(k2);
    expect(k1.startsWith(mcpTrustPrefix(project(long)))).toBe(true);
    expect(parseMcpTrustKey(k1)).toEqual({ kind: 'project', root: undefined, name: 'x' });
  });

  it('refuses an unusable scope or name', () => {
    expect(() => mcpTrustKey(user, '')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey(user, 'a\nb')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey(user, 7 as never)).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey(user, 'n'.repeat(1000))).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey({ kind: 'project' } as never, 'x')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey(project(''), 'x')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey({ kind: 'team' } as never, 'x')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
    expect(() => mcpTrustKey(null as never, 'x')).toThrow(
      expect.objectContaining({ name: 'TrustStoreError', code: 'TRUST_INVALID_KEY' }),
    );
  });
});

describe('mcpTrustPrefix and parseMcpTrustKey', () => {
  it('gives one prefix per scope, and one for every MCP entry', () => {
    expect(mcpTrustPrefix()).toBe(MCP_TRUST_PREFIX);
    expect(mcpTrustPrefix(user)).toBe('mcp::user::');
    expect(mcpTrustPrefix(project('/p'))).toBe('mcp::project::/p::');
    // "/p" must not list "/p2"'s servers.
    expect(mcpTrustKey(project('/p2'), 'x').startsWith(mcpTrustPrefix(project('/p')))).toBe(false);
  });

  it('parses keys back, and returns undefined for other keys', () => {
    expect(parseMcpTrustKey('mcp::user::github')).toEqual({ kind: 'user', name: 'github' });
    expect(parseMcpTrustKey('mcp::user::a::b')).toEqual({ kind: 'user', name: 'a::b' });
    expect(parseMcpTrustKey(mcpTrustKey(project('/x:y'), ':z'))).toEqual({
      kind: 'project',
      root: '/x:y',
      name: ':z',
    });
    for (const other of [
      'hooks::x',
      'mcp::user::',
      'mcp::project::/p',
      'mcp::project::::x',
      'mcp::project::/p::',
    ]) {
      expect(parseMcpTrustKey(other)).toBeUndefined();
    }
  });
});
