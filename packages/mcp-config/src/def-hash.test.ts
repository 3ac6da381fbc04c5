import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localDefaults, remoteDefaults } from '../test/local-defaults.js';
import { defHash } from './def-hash.js';
import type { LocalServerDef, RemoteServerDef } from './server-types.js';

const LOCAL: LocalServerDef = {
  kind: 'local',
  command: 'github-mcp-server',
  args: ['stdio'],
  env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}', MODE: 'ro' },
  cwd: '/work',
  network: true,
  writePaths: ['/tmp/out'],
  readPaths: [],
  timeoutMs: 60_000,
  enabled: true,
};

/** LOCAL's identity fields, keys sorted: what the design says is hashed. */
const LOCAL_IDENTITY = {
  args: ['stdio'],
  command: 'github-mcp-server',
  cwd: '/work',
  env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}', MODE: 'ro' },
  network: true,
  writePaths: ['/tmp/out'],
};
const LOCAL_CANONICAL = JSON.stringify(LOCAL_IDENTITY);

const REMOTE: RemoteServerDef = {
  ...remoteDefaults('https://mcp.example.com/mcp'),
  headers: { 'X-Client': 'garuda' },
};

describe('defHash', () => {
  it('is the sha256 of the documented canonical JSON', () => {
    expect(defHash(LOCAL)).toBe(createHash('sha256').update(LOCAL_CANONICAL).digest('hex'));
    const remote = JSON.stringify({
      headers: { 'X-Client': 'garuda' },
      type: 'http',
      url: 'https://mcp.example.com/mcp',
    });
    expect(defHash(REMOTE)).toBe(createHash('sha256').update(remote).digest('hex'));
    expect(defHash(LOCAL)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order', () => {
    const reordered = {
      writePaths: ['/tmp/out'],
      network: true,
      env: { MODE: 'ro', GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
      enabled: true,
      cwd: '/work',
      command: 'github-mcp-server',
      args: ['stdio'],
    };
    expect(defHash(reordered)).toBe(defHash(LOCAL));
    expect(defHash({ headers: { 'X-Client': 'garuda' }, url: REMOTE.url })).toBe(defHash(REMOTE));
  });

  it('hashes a left-out field and its default the same', () => {
    expect(defHash({ command: 'x' })).toBe(
      defHash({ command: 'x', args: [], env: {}, network: false, writePaths: [] }),
    );
    expect(defHash({ command: 'x' })).toBe(defHash(localDefaults('x')));
    expect(defHash({ url: 'https://a.example' })).toBe(
      defHash({ url: 'https://a.example', type: 'http', headers: {} }),
    );
  });

  it('changes with everything that decides what runs or where data goes', () => {
    const base = defHash(LOCAL);
    const variants: LocalServerDef[] = [
      { ...LOCAL, command: 'github-mcp-server2' },
      { ...LOCAL, args: ['stdio', '--x'] },
      { ...LOCAL, args: [] },
      { ...LOCAL, env: { ...LOCAL.env, EXTRA: '1' } },
      { ...LOCAL, env: { ...LOCAL.env, MODE: 'rw' } },
      { ...LOCAL, env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${OTHER_TOKEN}', MODE: 'ro' } },
      { ...LOCAL, network: false },
      { ...LOCAL, writePaths: ['/'] },
      { ...LOCAL, readPaths: ['~/.kube'] },
      { ...LOCAL, readPaths: ['~/.kube', '~/.aws'] },
      { ...LOCAL, cwd: '/' },
    ];
    const hashes = new Set([base, ...variants.map(defHash)]);
    expect(hashes.size).toBe(variants.length + 1);
    const { cwd: _cwd, ...noCwd } = LOCAL;
    expect(defHash(noCwd)).not.toBe(base);

    const remoteBase = defHash(REMOTE);
    const remoteVariants: RemoteServerDef[] = [
      { ...REMOTE, url: 'https://mcp.example.com/mcp2' },
      { ...REMOTE, headers: { ...REMOTE.headers, Authorization: 'Bearer ${GITHUB_TOKEN}' } },
      { ...REMOTE, headers: {} },
      { ...REMOTE, headers: { 'X-Client': 'other' } },
    ];
    const remoteHashes = new Set([remoteBase, ...remoteVariants.map(defHash)]);
    expect(remoteHashes.size).toBe(remoteVariants.length + 1);
  });

  it('does not change with timeoutMs, enabled or oauth', () => {
    expect(defHash({ ...LOCAL, timeoutMs: 1000, enabled: false })).toBe(defHash(LOCAL));
    expect(
      defHash({
        ...REMOTE,
        timeoutMs: 5000,
        enabled: false,
        oauth: { clientId: 'c', scopes: ['s'] },
      }),
    ).toBe(defHash(REMOTE));
  });

  it('hashes read paths only when there are some, so older definitions keep their hash', () => {
    // The hash every definition without read paths had before the field existed.
    const old = createHash('sha256').update(LOCAL_CANONICAL).digest('hex');
    expect(defHash(LOCAL)).toBe(old);
    const { readPaths: _readPaths, ...written } = LOCAL;
    expect(defHash(written)).toBe(old);

    // readPaths sorts between network and writePaths.
    const { writePaths, ...beforeWritePaths } = LOCAL_IDENTITY;
    const withRead = JSON.stringify({ ...beforeWritePaths, readPaths: ['~/.kube'], writePaths });
    expect(defHash({ ...LOCAL, readPaths: ['~/.kube'] })).toBe(
      createHash('sha256').update(withRead).digest('hex'),
    );
    // A read path is not a write path: moving one from one list to the other asks again.
    expect(defHash({ ...LOCAL, writePaths: [], readPaths: ['/tmp/out'] })).not.toBe(old);
    expect(() => defHash({ command: 'x', readPaths: [1] } as never)).toThrow(/readPaths/);
  });

  it('keeps local and remote apart', () => {
    expect(defHash({ command: 'https://a.example' })).not.toBe(
      defHash({ url: 'https://a.example' }),
    );
  });

  it('throws for something that is not a definition', () => {
    expect(() => defHash(null as never)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'CONFIG_INVALID_ARGUMENT' }),
    );
    expect(() => defHash({} as never)).toThrow(/command/);
    expect(() => defHash({ command: 'x', url: 'https://a' } as never)).toThrow(/both/);
    expect(() => defHash({ command: 'x', args: [1] } as never)).toThrow(/args/);
    expect(() => defHash({ command: 'x', env: { A: 1 } } as never)).toThrow(/env/);
    expect(() => defHash({ command: 'x', network: 'yes' } as never)).toThrow(/network/);
    expect(() => defHash({ url: 'https://a', headers: [] } as never)).toThrow(/headers/);
  });
});
