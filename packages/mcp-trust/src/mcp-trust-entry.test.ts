import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, tempDir } from '../test/helpers.js';
import { getMcpTrustEntry, readMcpTrustEntry } from './mcp-trust-entry.js';
import { TrustStore } from './trust-store.js';

const at = '2024-01-01T00:00:00.000Z';

describe('readMcpTrustEntry', () => {
  it('reads a valid entry, keeping only the known fields', () => {
    expect(readMcpTrustEntry({ def: 'd', at })).toEqual({ def: 'd', at });
    expect(
      readMcpTrustEntry({ def: 'd', tools: 't', toolHashes: { a: 'x:y' }, at, extra: 1 }),
    ).toEqual({ def: 'd', tools: 't', toolHashes: { a: 'x:y' }, at });
    expect(readMcpTrustEntry(undefined)).toBeUndefined();
  });

  it.each([
    ['a string', 'd', 'not an object'],
    ['an array', [], 'not an object'],
    ['no def', { at }, '"def"'],
    ['an empty def', { def: '', at }, '"def"'],
    ['no at', { def: 'd' }, '"at"'],
    ['a numeric tools hash', { def: 'd', at, tools: 1 }, '"tools"'],
    ['toolHashes as an array', { def: 'd', at, toolHashes: [] }, '"toolHashes"'],
    ['a non-string pin', { def: 'd', at, toolHashes: { a: 1 } }, '"toolHashes"'],
  ])('counts %s as absent, with a warning naming the key', (_, value, says) => {
    const { logger, lines } = recordingLogger();
    expect(readMcpTrustEntry(value, { logger, key: 'mcp::user::x' })).toBeUndefined();
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain('"mcp::user::x"');
    expect(lines.warn[0]).toContain(says);
  });
});

describe('getMcpTrustEntry', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    await cleanup();
  });

  it('reads through the store and warns through its logger', async () => {
    const { logger, lines } = recordingLogger();
    const store = new TrustStore(path.join(dir, 'trust.json'), { logger });
    await store.set('mcp::user::good', { def: 'd', at });
    await store.set('mcp::user::bad', { def: 3 });
    expect(await getMcpTrustEntry(store, 'mcp::user::good')).toEqual({ def: 'd', at });
    expect(await getMcpTrustEntry(store, 'mcp::user::none')).toBeUndefined();
    expect(lines.warn).toEqual([]);
    expect(await getMcpTrustEntry(store, 'mcp::user::bad')).toBeUndefined();
    expect(lines.warn).toHaveLength(1);
  });
});
