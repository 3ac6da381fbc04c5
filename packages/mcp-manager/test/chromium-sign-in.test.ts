// The sign-in with a real browser: Debian's Chromium, headless, opens the authorization page,
// follows the authorization server's redirect to our loopback callback, and the manager
// finishes the sign-in. Runs wherever /usr/bin/chromium exists (.ci/run installs it); skipped
// loudly elsewhere, and GARUDA_REQUIRE_CHROMIUM=1 makes a missing browser a failure.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SignInPrompter, unwrap, useWorkspace } from './support/e2e.js';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  console.warn(`\n*** ${CHROMIUM} is missing: the real-browser sign-in test is SKIPPED ***\n`);
}

const ws = useWorkspace();

/** Opens a URL in a fresh headless Chromium, the way a user's browser would be opened. */
async function chromiumOpener(): Promise<(url: string) => Promise<boolean>> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'garuda-chromium-'));
  const browsers: ChildProcess[] = [];
  ws.defer(async () => {
    // Chromium starts helper processes: stop its whole process group, then remove the profile.
    await Promise.all(
      browsers.map(
        (browser) =>
          new Promise<void>((resolve) => {
            if (browser.exitCode !== null || browser.signalCode !== null) return resolve();
            browser.once('exit', () => resolve());
            try {
              process.kill(-(browser.pid as number), 'SIGKILL');
            } catch {
              resolve();
            }
          }),
      ),
    );
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  return (url: string) => {
    const browser = spawn(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
        `--user-data-dir=${profile}`,
        url,
      ],
      { stdio: 'ignore', shell: false, detached: true },
    );
    browsers.push(browser);
    return Promise.resolve(true);
  };
}

describe('sign-in in a real browser', () => {
  it.runIf(process.env.GARUDA_REQUIRE_CHROMIUM === '1')('has Chromium when it is required', () => {
    expect(HAS_CHROMIUM).toBe(true);
  });

  it.skipIf(!HAS_CHROMIUM)(
    'headless Chromium follows the authorization redirect to the callback, and the call works',
    async () => {
      const oauth = await ws.oauthFixture();
      await ws.userServers({ docs: { url: String(oauth.url) } });
      const prompter = new SignInPrompter();
      const mcp = ws.manager(prompter, { openBrowser: await chromiumOpener() });
      await mcp.start();

      expect(prompter.signIns).toHaveLength(1);
      expect(mcp.status()[0]).toMatchObject({ name: 'docs', state: 'connected' });
      expect(mcp.status()[0]?.network).toMatchObject({ kind: 'remote', signedIn: true });
      expect(oauth.counts.authorizations).toBe(1);
      expect(oauth.counts.tokensIssued).toBeGreaterThanOrEqual(1);
      const result = await mcp.call('mcp__docs__echo', { text: 'from a real browser' });
      expect(unwrap(result.text)).toBe('from a real browser');
    },
    300_000,
  );
});
