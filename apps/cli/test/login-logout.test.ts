// garuda-mcp login and logout against the OAuth fixture, signing in through a stand-in browser,
// without a terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startOAuthFixture } from '@garuda/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { FETCH_BROWSER } from './support/paths.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('login and logout', () => {
  it('login signs in through --browser; status shows it; logout revokes; then status declines the sign-in', async () => {
    const oauth = await startOAuthFixture();
    closers.push(() => oauth.close());
    await world.userServers({ linear: { url: oauth.url.href } });
    const browser = `${process.execPath} ${FETCH_BROWSER}`;

    const login = await world.run(['login', 'linear', '--browser', browser]);
    expect(login.stderr).not.toContain('garuda-mcp:');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to MCP server linear');
    expect(login.stderr).toContain('needs a sign-in');
    expect(oauth.counts.tokensIssued).toBe(1);

    const status = await world.run(['status', '--json']);
    const rows = (JSON.parse(status.stdout) as { servers: { network: unknown; state: string }[] })
      .servers;
    expect(rows[0]).toMatchObject({
      state: 'connected',
      network: { kind: 'remote', url: oauth.url.href, signedIn: true },
    });
    expect((await world.run(['status'])).stdout).toContain(`remote ${oauth.url.href} · signed in`);

    const call = await world.run(['call', 'linear/echo', '{"text":"remote"}', '--yes']);
    expect(call.stdout).toContain('remote');

    const logout = await world.run(['logout', 'linear']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('Signed out of MCP server linear');
    expect(oauth.counts.revocations).toBeGreaterThan(0);

    const after = await world.run(['status']);
    expect(after.stdout).toMatch(/^linear\s+user\s+failed/m);
    expect(after.stderr).toContain('Declined: sign in to MCP server "linear"');
    expect(after.stderr).toContain('run garuda-mcp login linear');
    // Nobody was asked: the reason says so, not "you skipped it".
    expect(after.stdout).toContain(
      'linear: it needs a sign-in, and nobody was asked (no terminal): run garuda-mcp login linear on a terminal',
    );
    const doctor = await world.run(['doctor']);
    expect(doctor.stdout).toContain('nobody was asked (no terminal)');
    expect(doctor.stdout + after.stdout).not.toContain('you skipped');

    // No token reached any output or the config file.
    const auth = await readFile(path.join(world.home, 'mcp-auth.json'), 'utf8').catch(() => '');
    const config = await readFile(path.join(world.home, 'mcp.json'), 'utf8');
    const everything = [login, status, call, logout, after]
      .map((r) => r.stdout + r.stderr)
      .join('\n');
    expect(everything).not.toMatch(
      /\bat_[A-Za-z0-9_-]{20,}|\brt_[A-Za-z0-9_-]{20,}|\bcode_[A-Za-z0-9_-]{20,}/,
    );
    expect(config).not.toMatch(/at_|rt_/);
    expect(auth).not.toMatch(/"access_token"/);
  });

  it('a tool that needs more access: call says which scope and how; login --scope gets it', async () => {
    const oauth = await startOAuthFixture({
      mode: 'scoped',
      scopes: ['mcp:tools', 'mcp:write'],
      challengeScope: 'mcp:tools',
    });
    closers.push(() => oauth.close());
    await world.userServers({ notes: { url: oauth.url.href } });
    const browser = `${process.execPath} ${FETCH_BROWSER}`;
    expect((await world.run(['login', 'notes', '--browser', browser])).code).toBe(0);

    const refused = await world.run(['call', 'notes/write_note', '{"text":"hi"}', '--yes']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('asks for more access than your sign-in gives (mcp:write)');
    expect(refused.stderr).toContain('Declined: sign in to MCP server "notes"');
    expect(refused.stderr).toContain(
      'The call of mcp__notes__write_note needs more access to MCP server "notes" (it wants the scope mcp:write), and nobody could be asked to sign in (no terminal).',
    );
    expect(refused.stderr).not.toContain('you skipped');
    expect(refused.stderr).toContain(
      'Sign in for it with: garuda-mcp login notes --scope mcp:write',
    );

    const login = await world.run(['login', 'notes', '--scope', 'mcp:write', '--browser', browser]);
    expect(login.stderr).not.toContain('garuda-mcp:');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Signed in to MCP server notes');
    expect(oauth.lastAuthorizationRequest?.scope?.split(' ').sort()).toEqual([
      'mcp:tools',
      'mcp:write',
    ]);
    const done = await world.run(['call', 'notes/write_note', '{"text":"hi"}', '--yes']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('stored: hi');
    expect(oauth.counts.codesIssued).toBe(2);

    const bad = await world.run(['login', 'notes', '--scope', 'has space']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('OAuth scope names');
  });

  it('GARUDA_BROWSER chooses the program when --browser is not given', async () => {
    const oauth = await startOAuthFixture();
    closers.push(() => oauth.close());
    await world.userServers({ linear: { url: oauth.url.href } });
    const login = await world.run(['login', 'linear', '--json'], {
      env: { GARUDA_BROWSER: `${process.execPath} ${FETCH_BROWSER}` },
    });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({ server: 'linear', connected: true, signedIn: true });
  });

  it('login of a local server or an unknown name is a usage error', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    expect((await world.run(['login', 'fx'])).stderr).toContain('only remote servers sign in');
    expect((await world.run(['login', 'nope'])).code).toBe(2);
  });
});
