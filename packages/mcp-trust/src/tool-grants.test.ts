import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test/helpers.js';
import { mcpTrustKey } from './mcp-trust-key.js';
import { forgetMcpServer, rememberMcpServer } from './remember-mcp-server.js';
import {
  MAX_GRANTS_PER_SERVER,
  checkToolGrant,
  forgetToolGrants,
  mcpGrantKey,
  readToolGrants,
  rememberToolGrant,
  schemaHash,
  type ToolGrantBinding,
} from './tool-grants.js';
import { TrustStore } from './trust-store.js';

let cleanup: () => Promise<void>;
let store: TrustStore;
let clock: Date;

beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await tempDir());
  clock = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  store = new TrustStore(path.join(dir, 'trust.json'), { now: () => clock });
});
afterEach(async () => {
  await cleanup();
});

const key = mcpTrustKey({ kind: 'project', root: '/repo' }, 'fs');
const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const binding: ToolGrantBinding = { def: 'd1', capabilities: ['read'], inputSchema: schema };

describe('tool grants', () => {
  it('keys grants beside the server, never under the trust prefix', () => {
    expect(mcpGrantKey(key)).toBe('mcp-grant::project::/repo::fs');
    expect(mcpGrantKey(mcpTrustKey({ kind: 'user' }, 'fs'))).toBe('mcp-grant::user::fs');
    let error: unknown;
    try {
      mcpGrantKey('hooks::x');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'TRUST_INVALID_KEY' });
  });

  it('holds for the same definition, capabilities and schema (key order and list order aside)', async () => {
    expect(await checkToolGrant(store, key, 'read_file', binding)).toEqual({ state: 'none' });
    await rememberToolGrant(store, key, 'read_file', binding);
    const reordered = {
      required: ['path'],
      properties: { path: { type: 'string' } },
      type: 'object',
    };
    expect(
      await checkToolGrant(store, key, 'read_file', { ...binding, inputSchema: reordered }),
    ).toEqual({ state: 'granted', at: '2026-01-02T03:04:05.000Z' });
    expect(await checkToolGrant(store, key, 'write_file', binding)).toEqual({ state: 'none' });
  });

  it('does not hold once the capabilities, the definition or the schema changed', async () => {
    await rememberToolGrant(store, key, 'read_file', binding);
    const check = (b: Partial<ToolGrantBinding>) =>
      checkToolGrant(store, key, 'read_file', { ...binding, ...b });
    expect(await check({ def: 'd2', capabilities: ['read', 'write'] })).toEqual({
      state: 'stale',
      changed: ['capabilities'],
    });
    expect(await check({ capabilities: undefined })).toEqual({
      state: 'stale',
      changed: ['capabilities'],
    });
    expect(await check({ def: 'd2' })).toEqual({ state: 'stale', changed: ['definition'] });
    expect(
      await check({ inputSchema: { ...schema, properties: { path: { type: 'number' } } } }),
    ).toEqual({ state: 'stale', changed: ['schema'] });
    expect(await check({ def: 'd3', inputSchema: {} })).toEqual({
      state: 'stale',
      changed: ['definition', 'schema'],
    });
  });

  it('is bound to "undeclared" as its own state, not to an empty list', async () => {
    await rememberToolGrant(store, key, 't', { ...binding, capabilities: undefined });
    expect(
      await checkToolGrant(store, key, 't', { ...binding, capabilities: undefined }),
    ).toMatchObject({ state: 'granted' });
    expect(await checkToolGrant(store, key, 't', binding)).toMatchObject({ state: 'stale' });
  });

  it('forgets one tool, every tool, and with the server', async () => {
    await rememberToolGrant(store, key, 'a', binding);
    await rememberToolGrant(store, key, '__proto__', binding);
    expect([...readToolGrants(await store.get(mcpGrantKey(key))).keys()].sort()).toEqual([
      '__proto__',
      'a',
    ]);
    expect(await forgetToolGrants(store, key, 'a')).toBe(true);
    expect(await forgetToolGrants(store, key, 'a')).toBe(false);
    expect(await checkToolGrant(store, key, '__proto__', binding)).toMatchObject({
      state: 'granted',
    });
    await rememberMcpServer(store, key, { def: 'd1' });
    expect(await forgetMcpServer(store, key)).toBe(true);
    expect(await store.get(mcpGrantKey(key))).toBeUndefined();
    await rememberToolGrant(store, key, 'a', binding);
    // Only a grant left: forgetting the server still reports it forgot something.
    expect(await forgetMcpServer(store, key)).toBe(true);
    expect(await forgetMcpServer(store, key)).toBe(false);
  });

  it('keeps at most MAX_GRANTS_PER_SERVER, the oldest giving way', async () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_GRANTS_PER_SERVER }, (_, i) => [
        `t${String(i)}`,
        {
          def: 'd1',
          capabilities: ['read'],
          schema: schemaHash(schema),
          at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
        },
      ]),
    );
    await store.update(mcpGrantKey(key), () => ({ tools: many }));
    await rememberToolGrant(store, key, 'new', binding);
    const grants = readToolGrants(await store.get(mcpGrantKey(key)));
    expect(grants.size).toBe(MAX_GRANTS_PER_SERVER);
    expect(grants.has('t0')).toBe(false);
    expect(grants.has('t1')).toBe(true);
    expect(grants.has('new')).toBe(true);
  });

  it('counts a malformed grant as absent', async () => {
    await store.update(mcpGrantKey(key), () => ({
      tools: { a: { def: 'd1', capabilities: 'read', schema: 'x', at: 'y' }, b: 5 },
    }));
    expect(await checkToolGrant(store, key, 'a', binding)).toEqual({ state: 'none' });
    expect(readToolGrants('nonsense').size).toBe(0);
  });

  it('refuses a grant without a tool name or definition', async () => {
    await expect(rememberToolGrant(store, key, '', binding)).rejects.toMatchObject({
      code: 'TRUST_INVALID_VALUE',
    });
    await expect(rememberToolGrant(store, key, 'a', { ...binding, def: '' })).rejects.toMatchObject(
      { code: 'TRUST_INVALID_VALUE' },
    );
  });
});
