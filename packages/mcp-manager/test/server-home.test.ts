// Each local server's own home, with real sandboxed fixture servers: a private, persistent,
// writable folder that the XDG variables point into, while the user's home stays read-only.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HAS_SANDBOX, ScriptedPrompter, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** What the `env` tool of the `normal` fixture says. */
async function envOf(
  call: (name: string, args: Record<string, unknown>) => Promise<{ text: string }>,
  tool: string,
  names: string[],
): Promise<Record<string, string>> {
  const result = await call(tool, { names });
  return (JSON.parse(unwrap(result.text)) as { values: Record<string, string> }).values;
}

describe('server homes', () => {
  it('a project server gets one home per project; ${GARUDA_SERVER_HOME} names it in its env', async () => {
    const homes = ws.path('homes');
    const { mcp } = await ws.startProjectServers(
      {
        ev: fixture('normal', ws.mark, {
          env: { MEMORY_FILE_PATH: '${GARUDA_SERVER_HOME}/memory.jsonl' },
        }),
      },
      'once',
      { sandbox: { serverHomesDir: homes } },
    );
    const hash = createHash('sha256').update(ws.root).digest('hex').slice(0, 12);
    const home = path.join(homes, `ev.${hash}`);
    const values = await envOf((name, args) => mcp.call(name, args), 'mcp__ev__env', [
      'MEMORY_FILE_PATH',
      'XDG_DATA_HOME',
    ]);
    expect(values.MEMORY_FILE_PATH).toBe(path.join(home, 'memory.jsonl'));
    if (HAS_SANDBOX) expect(values.XDG_DATA_HOME).toBe(path.join(home, 'data'));
    else expect(values.XDG_DATA_HOME).toBeUndefined();
    for (const dir of [
      home,
      ...['cache', 'data', 'config', 'state'].map((d) => path.join(home, d)),
    ]) {
      expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700');
    }
    expect(((await stat(homes)).mode & 0o777).toString(8)).toBe('700');
  });
});

describe.skipIf(!HAS_SANDBOX)('a sandboxed server in its home', () => {
  // A home folder off /tmp, as a real one is (bubblewrap gives every server a private /tmp).
  let userHome: string;
  beforeEach(async () => {
    userHome = await realpath(await mkdtemp('/var/tmp/garuda-server-home-'));
  });
  afterEach(async () => {
    await rm(userHome, { recursive: true, force: true });
  });

  /** A `files` and a `normal` fixture server, sandboxed, with the user's home at `userHome`. */
  async function twoServers() {
    const options = {
      userHome,
      env: { PATH: process.env.PATH, HOME: userHome, LANG: 'C.UTF-8' },
    };
    const servers = { fs: fixture('files', ws.mark), ev: fixture('normal', ws.mark) };
    const { mcp } = await ws.startUserServers(servers, options);
    return { mcp, options, homes: path.join(userHome, '.local', 'share', 'garuda-mcp', 'servers') };
  }

  it('writes its XDG data folder, kept across restarts at <userHome>/.local/share/garuda-mcp/servers/<name>; the home folder stays read-only', async () => {
    const { mcp, options, homes } = await twoServers();
    const xdg = await envOf((name, args) => mcp.call(name, args), 'mcp__ev__env', [
      'XDG_DATA_HOME',
      'XDG_CACHE_HOME',
      'XDG_CONFIG_HOME',
      'XDG_STATE_HOME',
      'HOME',
    ]);
    expect(xdg).toEqual({
      XDG_DATA_HOME: path.join(homes, 'ev', 'data'),
      XDG_CACHE_HOME: path.join(homes, 'ev', 'cache'),
      XDG_CONFIG_HOME: path.join(homes, 'ev', 'config'),
      XDG_STATE_HOME: path.join(homes, 'ev', 'state'),
      HOME: userHome,
    });

    const file = path.join(homes, 'fs', 'data', 'x');
    expect(await mcp.call('mcp__fs__write_file', { path: file, text: 'kept' })).toMatchObject({
      isError: false,
    });
    // Another server's home is not this one's to write.
    const other = await mcp.call('mcp__fs__write_file', {
      path: path.join(homes, 'ev', 'data', 'x'),
      text: 'no',
    });
    expect(other.isError).toBe(true);
    const inHome = await mcp.call('mcp__fs__write_file', {
      path: path.join(userHome, 'x.txt'),
      text: 'no',
    });
    expect(inHome.isError).toBe(true);
    await mcp.close();

    expect(await readFile(file, 'utf8')).toBe('kept');
    expect(((await stat(path.join(homes, 'fs'))).mode & 0o777).toString(8)).toBe('700');
    const again = ws.manager(new ScriptedPrompter(), options);
    await again.start();
    const read = await again.call('mcp__fs__read_file', { path: file });
    expect(read).toMatchObject({ isError: false });
    expect(unwrap(read.text)).toBe('kept');
  });

  it("finds its own cache at ~/.cache (Linux), and cannot read another server's home", async () => {
    const { mcp, homes } = await twoServers();
    // What chrome-devtools-mcp does: a path built from the home folder, not from XDG_CACHE_HOME.
    const made = await mcp.call('mcp__fs__write_file', {
      path: path.join(userHome, '.cache', 'profile.json'),
      text: 'cookies',
    });
    if (process.platform === 'linux') {
      expect(made).toMatchObject({ isError: false });
      const landed = path.join(homes, 'fs', 'cache', 'profile.json');
      expect(await readFile(landed, 'utf8')).toBe('cookies');
      // Nothing of it in the user's own ~/.cache, which was made only as the mount point.
      expect(await readdir(path.join(userHome, '.cache'))).toEqual([]);
    } else {
      expect(made.isError).toBe(true);
    }
    // The browser profile one server keeps in its home is not another's to read.
    const theirs = path.join(homes, 'ev', 'data', 'secret');
    await mkdir(path.dirname(theirs), { recursive: true });
    await writeFile(theirs, 'session');
    const peek = await mcp.call('mcp__fs__read_file', { path: theirs });
    expect(peek.isError).toBe(true);
    await mcp.close();
  });
});
