import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { caught, recordingLogger } from '../test/helpers.js';
import { openBrowser, type ExecFileLike, type OpenerSpawnOptions } from './open-browser.js';

interface Call {
  file: string;
  args: readonly string[];
  options: OpenerSpawnOptions;
}

/** An opener that records its call and then spawns, exits or fails as told. */
function fakeOpener(behaviour: 'exit0' | 'exit3' | 'enoent' | 'stays' | 'throws' = 'exit0') {
  const calls: Call[] = [];
  let unrefs = 0;
  const execFile: ExecFileLike = (file, args, options) => {
    calls.push({ file, args, options });
    if (behaviour === 'throws') throw Object.assign(new Error('spawn EINVAL'), { code: 'EINVAL' });
    const child = Object.assign(new EventEmitter(), { unref: () => void unrefs++ });
    setImmediate(() => {
      if (behaviour === 'enoent') {
        child.emit('error', Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' }));
        return;
      }
      child.emit('spawn');
      if (behaviour === 'exit0') child.emit('exit', 0, null);
      if (behaviour === 'exit3') child.emit('exit', 3, null);
    });
    return child;
  };
  return { execFile, calls, unrefs: () => unrefs };
}

const HTTPS = 'https://auth.example/authorize?client_id=x&state=s';

describe('openBrowser', () => {
  it.each([
    ['linux', 'xdg-open', [HTTPS]],
    ['freebsd', 'xdg-open', [HTTPS]],
    ['darwin', 'open', [HTTPS]],
    ['win32', 'rundll32', ['url.dll,FileProtocolHandler', HTTPS]],
  ] as const)('opens an https page on %s with %s and no shell', async (platform, file, args) => {
    const opener = fakeOpener();
    expect(await openBrowser(HTTPS, { platform, execFile: opener.execFile })).toBe(true);
    expect(opener.calls).toEqual([
      {
        file,
        args,
        options: {
          shell: false,
          stdio: 'ignore',
          detached: platform !== 'win32',
          windowsHide: true,
        },
      },
    ]);
    expect(opener.unrefs()).toBe(1);
  });

  it('passes the canonical address as one last argument, whatever it contains', async () => {
    const opener = fakeOpener();
    const tricky = 'https://auth.example/a b?x="&y=|calc&z=%00`whoami`$(id)';
    await openBrowser(tricky, { platform: 'win32', execFile: opener.execFile });
    const last = opener.calls[0]?.args.at(-1) as string;
    expect(opener.calls[0]?.args).toHaveLength(2);
    expect(last).toBe(new URL(tricky).href);
    // No cmd.exe ever parses it (rundll32 is started directly), so only the URL parser's own
    // encoding applies: no raw space or quote can split or end the argument.
    expect(last).not.toMatch(/[ "]/);
  });

  it('uses a given command (the --browser flag), with the address last', async () => {
    const opener = fakeOpener();
    await openBrowser(HTTPS, { command: 'my browser', execFile: opener.execFile });
    await openBrowser(HTTPS, { command: ['firefox', '--new-window'], execFile: opener.execFile });
    expect(opener.calls.map((c) => [c.file, ...c.args])).toEqual([
      ['my browser', HTTPS],
      ['firefox', '--new-window', HTTPS],
    ]);
    await expect(openBrowser(HTTPS, { command: [] })).rejects.toMatchObject({
      name: 'OAuthFlowError',
      code: 'OAUTH_INVALID_OPTION',
    });
  });

  it('allows http only on this computer and only when asked', async () => {
    const opener = fakeOpener();
    for (const url of [
      'http://localhost:8080/authorize',
      'http://127.0.0.1:9/a',
      'http://[::1]:9/a',
    ]) {
      expect(await openBrowser(url, { allowHttpLoopback: true, execFile: opener.execFile })).toBe(
        true,
      );
      await expect(openBrowser(url, { execFile: opener.execFile })).rejects.toThrow(
        /configured yourself/,
      );
    }
    await expect(
      openBrowser('http://auth.example/authorize', {
        allowHttpLoopback: true,
        execFile: opener.execFile,
      }),
    ).rejects.toThrow(/not https/);
    expect(opener.calls).toHaveLength(3);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ms-settings:privacy',
    'ftp://files.example/x',
    'https://user:secret@auth.example/authorize',
    'not a url at all',
  ])('refuses %s without starting anything', async (url) => {
    const opener = fakeOpener();
    const error = await caught(() =>
      openBrowser(url, { allowHttpLoopback: true, execFile: opener.execFile }),
    );
    expect(error).toMatchObject({ name: 'OAuthFlowError', code: 'OAUTH_UNSAFE_BROWSER_URL' });
    expect((error as Error).message).not.toContain('secret');
    expect(opener.calls).toEqual([]);
  });

  it('returns false, never throws, when the opener is missing or fails', async () => {
    const { logger, lines } = recordingLogger();
    expect(await openBrowser(HTTPS, { execFile: fakeOpener('enoent').execFile, logger })).toBe(
      false,
    );
    expect(await openBrowser(HTTPS, { execFile: fakeOpener('exit3').execFile, logger })).toBe(
      false,
    );
    expect(await openBrowser(HTTPS, { execFile: fakeOpener('throws').execFile, logger })).toBe(
      false,
    );
    expect(lines.debug.join('\n')).toMatch(/ENOENT/);
    expect(lines.debug.join('\n')).toMatch(/exit 3/);
  });

  it('counts an opener still running after the grace time as launched', async () => {
    expect(
      await openBrowser(HTTPS, { execFile: fakeOpener('stays').execFile, timeoutMs: 20 }),
    ).toBe(true);
  });

  it('runs a real program without a shell', async () => {
    // node -e '…' <url>: exit code 0 when the address arrived intact as one argument.
    const script = 'process.exit(process.argv[1] === "https://auth.example/a?b=1&c=$(id)" ? 0 : 5)';
    expect(
      await openBrowser('https://auth.example/a?b=1&c=$(id)', {
        command: [process.execPath, '-e', script],
      }),
    ).toBe(true);
    expect(await openBrowser(HTTPS, { command: '/nonexistent/garuda-browser' })).toBe(false);
    expect(await openBrowser(HTTPS, { command: [process.execPath, '-e', 'process.exit(2)'] })).toBe(
      false,
    );
  });

  it('stops waiting on abort', async () => {
    const controller = new AbortController();
    const opened = openBrowser(HTTPS, {
      execFile: fakeOpener('stays').execFile,
      signal: controller.signal,
      timeoutMs: 10_000,
    });
    setTimeout(() => controller.abort(), 10);
    await expect(opened).rejects.toMatchObject({
      name: 'OAuthFlowError',
      code: 'OAUTH_SIGN_IN_ABORTED',
    });
  });
});
