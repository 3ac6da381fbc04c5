import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caught, tempDir } from '../test/helpers.js';
import { checkToolPins } from './check-tool-pins.js';
import { hashTools, toolHashes, type PinnedToolShape } from './hash-tools.js';
import { getMcpTrustEntry, type McpTrustEntry } from './mcp-trust-entry.js';
import { mcpTrustKey, mcpTrustPrefix } from './mcp-trust-key.js';
import { forgetMcpServer, rememberMcpServer, upgradeMcpTrustEntry } from './remember-mcp-server.js';
import { TrustStore } from './trust-store.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: TrustStore;
let clock: Date;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  clock = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  store = new TrustStore(path.join(dir, 'trust.json'), { now: () => clock });
});
afterEach(async () => {
  await cleanup();
});

const tools: PinnedToolShape[] = [
  { name: 'search', description: 'Search', inputSchema: { type: 'object' } },
];
const key = mcpTrustKey({ kind: 'project', root: '/repo' }, 'fix');

describe('rememberMcpServer', () => {
  it('stores def and at at consent, then tools and toolHashes after connect', async () => {
    expect(await rememberMcpServer(store, key, { def: 'd1' })).toEqual({
      def: 'd1',
      at: '2024-01-02T03:04:05.000Z',
    });
    expect(await getMcpTrustEntry(store, key)).toEqual({
      def: 'd1',
      at: '2024-01-02T03:04:05.000Z',
    });
    clock = new Date(Date.UTC(2024, 0, 3));
    const entry = await rememberMcpServer(store, key, { def: 'd1', tools });
    expect(entry).toEqual({
      def: 'd1',
      tools: hashTools(tools),
      toolHashes: toolHashes(tools),
      at: '2024-01-03T00:00:00.000Z',
    });
    expect(await store.get(key)).toEqual(entry);
    expect(checkToolPins(await getMcpTrustEntry(store, key), tools)).toEqual({
      state: 'unchanged',
    });
  });

  it('without tools, keeps the tool pins of the same def and drops those of another', async () => {
    await rememberMcpServer(store, key, { def: 'd1', tools });
    expect(await rememberMcpServer(store, key, { def: 'd1' })).toMatchObject({
      tools: hashTools(tools),
      toolHashes: toolHashes(tools),
    });
    const other = await rememberMcpServer(store, key, { def: 'd2' });
    expect(other).toEqual({ def: 'd2', at: '2024-01-02T03:04:05.000Z' });
  });

  it('refuses a missing def', async () => {
    expect(await caught(() => rememberMcpServer(store, key, { def: '' }))).toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_VALUE',
    });
    expect(await caught(() => rememberMcpServer(store, key, {} as never))).toMatchObject({
      name: 'TrustStoreError',
      code: 'TRUST_INVALID_VALUE',
    });
    expect(await store.get(key)).toBeUndefined();
  });
});

describe('upgradeMcpTrustEntry', () => {
  it('adds toolHashes to an old entry whose list is unchanged', async () => {
    await store.set(key, { def: 'd', tools: hashTools(tools), at: 'then' });
    const check = checkToolPins(await getMcpTrustEntry(store, key), tools);
    expect(check.state).toBe('unchanged');
    if (check.state !== 'unchanged' || !check.entry) throw new Error('expected an upgrade');
    expect(await upgradeMcpTrustEntry(store, key, check.entry)).toBe(true);
    expect(await store.get(key)).toEqual({
      def: 'd',
      tools: hashTools(tools),
      toolHashes: toolHashes(tools),
      at: 'then',
    });
    expect(checkToolPins(await getMcpTrustEntry(store, key), tools)).toEqual({
      state: 'unchanged',
    });
  });

  it('does not overwrite an entry another process changed in the meantime', async () => {
    await store.set(key, { def: 'd', tools: hashTools(tools), at: 'then' });
    const check = checkToolPins(await getMcpTrustEntry(store, key), tools);
    if (check.state !== 'unchanged' || !check.entry) throw new Error('expected an upgrade');
    await store.set(key, { def: 'd2', at: 'later' });
    expect(await upgradeMcpTrustEntry(store, key, check.entry)).toBe(false);
    expect(await store.get(key)).toEqual({ def: 'd2', at: 'later' });
    await store.delete(key);
    expect(await upgradeMcpTrustEntry(store, key, check.entry)).toBe(false);
    expect(await store.get(key)).toBeUndefined();
  });
});

describe('types', () => {
  it('an McpTrustEntry can be stored as it is', async () => {
    const entry: McpTrustEntry = { def: 'd', toolHashes: { a: 'x:y' }, at: 'now' };
    await store.set(key, entry);
    expect(await getMcpTrustEntry(store, key)).toEqual(entry);
  });
});

describe('forgetMcpServer', () => {
  it('removes one server, and a scope prefix lists the rest of that scope', async () => {
    const user = mcpTrustKey({ kind: 'user' }, 'fix');
    const other = mcpTrustKey({ kind: 'project', root: '/repo2' }, 'fix');
    const second = mcpTrustKey({ kind: 'project', root: '/repo' }, 'lint');
    for (const k of [key, user, other, second]) await rememberMcpServer(store, k, { def: 'd' });
    expect(await forgetMcpServer(store, key)).toBe(true);
    expect(await forgetMcpServer(store, key)).toBe(false);
    const rest = await store.entries(mcpTrustPrefix({ kind: 'project', root: '/repo' }));
    expect(rest.map(([k]) => k)).toEqual([second]);
    expect((await store.entries(mcpTrustPrefix())).map(([k]) => k).sort()).toEqual(
      [user, other, second].sort(),
    );
  });
});
