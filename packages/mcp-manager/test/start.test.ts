// The start sequence through the public facade: config problems, consent, trust, names, notes
// (its lifecycle is in lifecycle.test.ts). Real fixture servers in the real sandbox; config files
// in temp folders.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defHash } from '@garuda/mcp-config';
import { TrustStore, getMcpTrustEntry, mcpTrustKey } from '@garuda/mcp-trust';
import { NORMAL_TOOL_NAMES } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError, ServerNotConnectedError, UnknownToolError } from '../src/index.js';
import { toolName, toolPrefix } from '@garuda/mcp-tools';
import { ScriptedPrompter, fixture, unwrap, useWorkspace, wrapped } from './support/e2e.js';

// The tool names hosts accept (what a model may call): letters, digits, `_` and `-`, 1 to 64.
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const ws = useWorkspace();

describe('configuration', () => {
  it('tells config problems as notices, keeps them in problems(), and starts the valid servers', async () => {
    const { prompter, mcp } = await ws.startUserServers({
      good: fixture('normal', ws.mark),
      'Bad Name': fixture('normal', ws.mark),
      odd: { ...fixture('normal', ws.mark), colour: 'blue' },
    });

    expect(mcp.problems().map((p) => p.code)).toEqual(['INVALID_NAME', 'UNKNOWN_KEY']);
    const configNotices = prompter.notices.filter((n) => n.startsWith('MCP configuration:'));
    expect(configNotices).toHaveLength(2);
    expect(configNotices[0]).toContain(`${path.join(ws.home, 'mcp.json')}:`);
    expect(configNotices[1]).toMatch(/"colour"/);
    expect(mcp.status().map((row) => [row.name, row.state])).toEqual([['good', 'connected']]);
  });

  it('expands ${NAME} into the server env, leaks no other host variable, and hashes the def as written', async () => {
    await ws.userServers({
      envy: fixture('normal', ws.mark, {
        env: { GREETING: 'hello ${HOST_GREETING}', PLAIN: 'as is' },
      }),
    });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter, {
      env: {
        PATH: process.env.PATH,
        HOME: ws.userHome,
        HOST_GREETING: 'world',
        LEAKY_SECRET: 'host-secret-value',
      },
      rules: { allow: ['mcp.envy.*'] },
    });
    await mcp.start();

    const result = await mcp.call('mcp__envy__env', {
      names: ['GREETING', 'PLAIN', 'LEAKY_SECRET'],
    });
    const env = JSON.parse(unwrap(result.text)) as {
      names: string[];
      values: Record<string, string>;
    };
    expect(env.values).toEqual({ GREETING: 'hello world', PLAIN: 'as is' });
    expect(env.names).toContain('GREETING');
    expect(env.names).not.toContain('LEAKY_SECRET');
    expect(env.names).not.toContain('HOST_GREETING');

    // A user server is pinned without a question: its def hash as written, and its tools.
    const store = new TrustStore(path.join(ws.home, 'trust.json'));
    const entry = await getMcpTrustEntry(store, mcpTrustKey({ kind: 'user' }, 'envy'));
    const config = await readFile(path.join(ws.home, 'mcp.json'), 'utf8');
    const written = (JSON.parse(config) as { servers: { envy: { command: string } } }).servers;
    expect(entry?.def).toBe(defHash(written.envy));
    expect(Object.keys(entry?.toolHashes ?? {}).sort()).toEqual([...NORMAL_TOOL_NAMES].sort());
    expect(entry?.tools).toMatch(/^[0-9a-f]{64}$/);
    // The expanded value is never stored.
    expect(await readFile(path.join(ws.home, 'trust.json'), 'utf8')).not.toContain('hello world');
    expect(prompter.consents).toEqual([]);
  });

  it('a server whose ${NAME} is not set does not start, naming it; the others do', async () => {
    await ws.userServers({
      unset: fixture('normal', ws.mark, { env: { API_TOKEN: '${GARUDA_TEST_UNSET_TOKEN}' } }),
      fine: fixture('normal', ws.mark),
    });
    const mcp = ws.manager(new ScriptedPrompter(), {
      env: { PATH: process.env.PATH, HOME: ws.userHome },
    });
    await mcp.start();
    expect(mcp.problems().map((problem) => problem.code)).toEqual(['MISSING_VARIABLE']);
    const rows = mcp.status();
    expect(rows.find((row) => row.name === 'fine')?.state).toBe('connected');
    expect(rows.find((row) => row.name === 'unset')).toMatchObject({ state: 'failed' });
    expect(rows.find((row) => row.name === 'unset')?.detail).toContain(
      'its env "API_TOKEN" takes ${GARUDA_TEST_UNSET_TOKEN}, which is not set: set GARUDA_TEST_UNSET_TOKEN',
    );
  });
});

describe('consent', () => {
  it('asks for a project server and not for a user server', async () => {
    await ws.userServers({ mine: fixture('normal', ws.mark) });
    const { prompter, mcp } = await ws.startProjectServers(
      {
        theirs: fixture('normal', ws.mark, { env: { API_TOKEN: 'literal' } }),
      },
      'once',
    );

    expect(prompter.consents).toHaveLength(1);
    const [request] = prompter.consents;
    expect(request).toMatchObject({ kind: 'server', server: 'theirs', source: 'project' });
    expect(request?.commandLine).toContain('mcp-server.mjs');
    expect(request?.env.map((v) => v.name)).toEqual(['API_TOKEN']);
    expect(mcp.status().map((row) => [row.name, row.source, row.state])).toEqual([
      ['mine', 'user', 'connected'],
      ['theirs', 'project', 'connected'],
    ]);
  });

  it('warns about a write path outside the project and temp folders, not about one in /tmp', async () => {
    const granted = await mkdtemp(path.join('/tmp', 'garuda-granted-'));
    try {
      await ws.projectServers({
        temp: fixture('normal', ws.mark, { writePaths: [granted] }),
        // Denied below, so nothing is ever written there.
        system: fixture('normal', ws.mark, { writePaths: ['/usr/share'] }),
      });
      const prompter = new ScriptedPrompter();
      prompter.answer = 'deny';
      await ws.manager(prompter).start();
      const warningsOf = (name: string) =>
        prompter.consents.find((r) => r.server === name)?.warnings.join('\n') ?? 'not asked';
      expect(warningsOf('system')).toMatch(/may write outside the project and temp folders/);
      expect(warningsOf('temp')).not.toMatch(/may write outside/);
    } finally {
      await rm(granted, { recursive: true, force: true });
    }
  });

  it('"once" lasts one session; "remember" is kept in the trust store', async () => {
    await ws.projectServers({ theirs: fixture('normal', ws.mark) });
    const first = new ScriptedPrompter();
    first.answer = 'once';
    await ws.manager(first).start();
    expect(first.consents).toHaveLength(1);

    const second = new ScriptedPrompter();
    second.answer = 'remember';
    const mcp2 = ws.manager(second);
    await mcp2.start();
    expect(second.consents).toHaveLength(1);
    // Remembered: a third session on the same trust store does not ask.
    const third = new ScriptedPrompter();
    third.answer = 'once';
    const mcp3 = ws.manager(third);
    await mcp3.start();
    expect(third.consents).toHaveLength(0);
    expect(mcp3.status()[0]?.state).toBe('connected');

    const store = new TrustStore(path.join(ws.home, 'trust.json'));
    const key = mcpTrustKey({ kind: 'project', root: ws.root }, 'theirs');
    const entry = await getMcpTrustEntry(store, key);
    expect(entry?.tools).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(entry?.toolHashes ?? {})).toHaveLength(NORMAL_TOOL_NAMES.length);
  });

  it('"once" is not asked again on reload in the same session', async () => {
    await ws.projectServers({ theirs: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'once';
    const mcp = ws.manager(prompter);
    await mcp.start();
    await mcp.reload('theirs');
    expect(prompter.consents).toHaveLength(1);
    expect(mcp.status()[0]?.state).toBe('connected');
  });

  it('deny → denied, a note for the model, and calls fail naming the state', async () => {
    await ws.projectServers({ fix: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start();

    expect(mcp.status()).toEqual([
      expect.objectContaining({
        name: 'fix',
        state: 'denied',
        tools: 0,
        detail: 'you did not allow it',
      }),
    ]);
    expect(mcp.tools()).toEqual([]);
    expect(mcp.takeNotes()).toEqual([
      'MCP server "fix" is not available (you did not allow it). Do not pretend to use it.',
    ]);
    const error = await mcp.call('mcp__fix__echo', { text: 'x' }).catch((e: unknown) => e);
    expect(ServerNotConnectedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('state: denied');
  });

  it('ignores a project server that tries to replace a user server, with a notice', async () => {
    await ws.projectServers({ dup: fixture('evil', ws.mark) });
    const { prompter, mcp } = await ws.startUserServers({ dup: fixture('normal', ws.mark) });

    expect(prompter.consents).toEqual([]);
    expect(prompter.notices.some((n) => n.includes('cannot replace a server you configured'))).toBe(
      true,
    );
    expect(mcp.status()).toEqual([
      expect.objectContaining({ name: 'dup', source: 'user', state: 'connected' }),
    ]);
    expect(mcp.tools().map((t) => t.name)).not.toContain(expect.stringMatching(/evil/));
    expect(mcp.tools()).toHaveLength(NORMAL_TOOL_NAMES.length);
  });
});

describe('tools and notes', () => {
  it('names tools mcp__<server>__<tool> in sorted (server, tool) order', async () => {
    const { mcp } = await ws.startUserServers({
      zeta: fixture('normal', ws.mark),
      alpha: fixture('normal', ws.mark),
    });

    const names = mcp.tools().map((t) => t.name);
    const expected = ['alpha', 'zeta'].flatMap((server) =>
      [...NORMAL_TOOL_NAMES].sort().map((tool) => `mcp__${server}__${tool}`),
    );
    expect(names).toEqual(expected);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(mcp.tools()[0]?.description).toMatch(/^\[From MCP server "alpha"/);
    expect(mcp.status().map((r) => [r.name, r.tools, r.network])).toEqual([
      ['zeta', NORMAL_TOOL_NAMES.length, { kind: 'local', allowed: false }],
      ['alpha', NORMAL_TOOL_NAMES.length, { kind: 'local', allowed: false }],
    ]);
    await expect(mcp.call('mcp__nope__x', {})).rejects.toSatisfy(UnknownToolError.isInstance);
  });

  it('a hyphenated server name (as other clients write them): its tools use _, calls and rules work', async () => {
    await ws.projectServers({ 'sequential-thinking': fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'remember';
    const mcp = ws.manager(prompter, { rules: { allow: ['mcp.sequential-thinking.echo'] } });
    await mcp.start();
    expect(mcp.status()[0]).toMatchObject({ name: 'sequential-thinking', state: 'connected' });
    expect(mcp.tools().map((t) => t.name)).toContain('mcp__sequential_thinking__echo');
    const result = await mcp.call('mcp__sequential_thinking__echo', { text: 'hi' });
    expect(result.text).toContain('server="sequential-thinking"');
    expect(prompter.approvals).toHaveLength(0);
    await mcp.close();
    // The consent was remembered under that name: a second session asks nothing.
    const again = new ScriptedPrompter();
    const second = ws.manager(again);
    await second.start();
    expect(again.consents).toHaveLength(0);
    expect(second.status()[0]?.state).toBe('connected');
    await second.close();
  });

  it("importConfigs: ['claude'] reads the project's .mcp.json in place, as project servers", async () => {
    await writeFile(
      path.join(ws.root, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          'from-claude': { type: 'stdio', ...fixture('normal', ws.mark) },
          old: { type: 'sse', url: 'https://example.com/sse' },
        },
      }),
    );
    const plain = ws.manager(new ScriptedPrompter());
    await plain.start();
    expect(plain.status()).toEqual([]);
    await plain.close();

    const prompter = new ScriptedPrompter();
    prompter.answer = 'once';
    const mcp = ws.manager(prompter, { storage: { importConfigs: ['claude'] } });
    await mcp.start();
    expect(prompter.consents.map((r) => [r.server, r.source, r.file])).toEqual([
      ['from-claude', 'project', path.join(ws.root, '.mcp.json')],
    ]);
    expect(mcp.status()[0]).toMatchObject({
      name: 'from-claude',
      source: 'project',
      state: 'connected',
    });
    expect(mcp.problems()).toHaveLength(1);
    expect(mcp.problems()[0]).toMatchObject({
      server: 'old',
      file: path.join(ws.root, '.mcp.json'),
    });
    expect(prompter.notices.some((n) => n.includes('legacy HTTP+SSE'))).toBe(true);
    expect(() =>
      ws.manager(prompter, { storage: { importConfigs: ['cursor' as 'claude'] } }),
    ).toThrow(InvalidOptionsError);
  });

  it('a name clash across servers: the first server in sorted order keeps it, a notice names the other', async () => {
    // Server "a" gets a tool "b__echo": mcp__a__b__echo, the same name as server "a__b"'s echo.
    await ws.userServers({
      a__b: fixture('normal', ws.mark),
      a: wrapped(['--mode', 'normal', '--rename', 'echo=b__echo'], ws.mark),
    });
    const prompter = new ScriptedPrompter();
    prompter.approve = true;
    const mcp = ws.manager(prompter);
    await mcp.start();

    const clash = mcp.tools().filter((t) => t.name === 'mcp__a__b__echo');
    expect(clash).toHaveLength(1);
    expect(clash[0]?.server).toBe('a');
    expect(prompter.notices.filter((n) => n.includes('mcp__a__b__echo'))).toEqual([
      expect.stringMatching(
        /^MCP server "a__b" \(yours\) is degraded: its tool "mcp__a__b__echo" is not offered: MCP server "a" \(yours\) holds that name/,
      ),
    ]);
    expect(mcp.status().map((r) => r.state)).toEqual(['connected', 'connected']);
    const result = await mcp.call('mcp__a__b__echo', { text: 'from a' });
    expect(result.text).toMatch(/^<mcp_result server="a" tool="b__echo">/);
  });

  it("name squatting: a project's my-notes never takes the names of your my_notes (- sorts before _); it is degraded, with a notice and a note", async () => {
    await ws.userServers({ my_notes: fixture('normal', ws.mark, { env: { WHO: 'user' } }) });
    await ws.projectServers({
      'my-notes': fixture('normal', ws.mark, { env: { WHO: 'project' } }),
    });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'once';
    const mcp = ws.manager(prompter);
    await mcp.start();

    // Every tool of the project's server is under your server's prefix: none is offered.
    expect(mcp.tools().map((t) => [t.name, t.server])).toEqual(
      [...NORMAL_TOOL_NAMES].sort().map((tool) => [`mcp__my_notes__${tool}`, 'my_notes']),
    );
    const result = await mcp.call('mcp__my_notes__env', { names: ['WHO'] });
    expect(JSON.parse(unwrap(result.text))).toMatchObject({ values: { WHO: 'user' } });

    const rows = new Map(mcp.status().map((row) => [row.name, row]));
    expect(rows.get('my_notes')).toMatchObject({ origin: 'user', lostNames: [] });
    const theirs = rows.get('my-notes');
    expect(theirs).toMatchObject({ origin: 'project', state: 'connected', tools: 0 });
    expect(theirs?.lostNames).toHaveLength(NORMAL_TOOL_NAMES.length);
    expect(theirs?.lostNames[0]).toMatchObject({
      kind: 'tool',
      server: 'my-notes',
      keptBy: 'my_notes',
      keptByOrigin: 'user',
    });
    expect(prompter.notices.filter((n) => n.includes('degraded'))).toEqual([
      expect.stringMatching(
        /^MCP server "my-notes" \(the project's\) is degraded: its tools "mcp__my_notes__add", .* are not offered: MCP server "my_notes" \(yours\) holds those names/,
      ),
    ]);
    const notes = mcp.takeNotes();
    expect(notes).toEqual([
      expect.stringMatching(/^MCP server "my-notes" is degraded: its tools /),
    ]);
    // Once per change of what it lost.
    expect(mcp.takeNotes()).toEqual([]);
  });

  it('name squatting by case or by a shortened (64-character, hash-suffixed) name: your server keeps both names', async () => {
    // Yours: `a__b` offers mcp__a__b__echo; `my_notes` offers a long tool, shortened with a hash.
    const long = `find_${'n'.repeat(80)}`;
    await ws.userServers({
      a__b: fixture('normal', ws.mark),
      my_notes: wrapped(['--mode', 'normal', '--rename', `echo=${long}`], ws.mark),
    });
    const shortened = toolName('my_notes', long);
    expect(shortened).toHaveLength(64);
    // The project's: `a` lists `b__ECHO` (mcp__a__b__ECHO: the same name but for case), and
    // `my-notes` lists the tail of your shortened name, which is short enough to stay as it is.
    const crafted = shortened.slice(toolPrefix('my-notes').length);
    expect(toolName('my-notes', crafted)).toBe(shortened);
    await ws.projectServers({
      a: wrapped(['--mode', 'normal', '--rename', 'echo=b__ECHO'], ws.mark),
      'my-notes': wrapped(['--mode', 'normal', '--rename', `echo=${crafted}`], ws.mark),
    });
    const prompter = new ScriptedPrompter();
    prompter.answer = 'once';
    const mcp = ws.manager(prompter);
    await mcp.start();

    const names = new Map(mcp.tools().map((t) => [t.name.toLowerCase(), t.server]));
    expect(names.get('mcp__a__b__echo')).toBe('a__b');
    expect(names.get(shortened)).toBe('my_notes');
    expect(mcp.tools().filter((t) => t.name.toLowerCase() === 'mcp__a__b__echo')).toHaveLength(1);
    expect(mcp.tools().filter((t) => t.name === shortened)).toHaveLength(1);
    const lost = new Map(mcp.status().map((row) => [row.name, row.lostNames]));
    expect(lost.get('a')).toEqual([
      {
        kind: 'tool',
        name: 'mcp__a__b__ECHO',
        server: 'a',
        origin: 'project',
        keptBy: 'a__b',
        keptByOrigin: 'user',
      },
    ]);
    expect(lost.get('my-notes')?.map((c) => c.name)).toContain(shortened);
    // The project's `a` keeps its other tools: only the clashing name is not offered.
    expect(names.get('mcp__a__add')).toBe('a');
    const result = await mcp.call(shortened, { text: 'x' });
    expect(result.text).toMatch(/^<mcp_result server="my_notes" tool="find_n+">/);
  });

  it('enabledForSession turns servers on and off for this manager only, writing nothing', async () => {
    await ws.userServers({
      off: fixture('normal', ws.mark, { enabled: false }),
      on: fixture('normal', ws.mark),
    });
    const file = path.join(ws.home, 'mcp.json');
    const before = await readFile(file, 'utf8');
    const mcp = ws.manager(new ScriptedPrompter(), {
      tools: { enabledForSession: { off: true, on: false, nosuch: true } },
    });
    await mcp.start();
    expect(mcp.status().map((row) => [row.name, row.state])).toEqual([
      ['off', 'connected'],
      ['on', 'disabled'],
    ]);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(() =>
      ws.manager(new ScriptedPrompter(), { tools: { enabledForSession: { on: 'no' } as never } }),
    ).toThrow(/enabledForSession/);
  });

  it('gives each note once per state change', async () => {
    await ws.userServers({
      off: fixture('normal', ws.mark, { enabled: false }),
      on: fixture('normal', ws.mark),
    });
    await ws.projectServers({ fix: fixture('normal', ws.mark) });
    const prompter = new ScriptedPrompter();
    const mcp = ws.manager(prompter);
    await mcp.start();

    expect(mcp.takeNotes()).toEqual([
      'MCP server "off" is not available (it is disabled in the configuration). Do not pretend to use it.',
      'MCP server "fix" is not available (you did not allow it). Do not pretend to use it.',
    ]);
    expect(mcp.takeNotes()).toEqual([]);

    prompter.answer = 'once';
    await mcp.reload('fix');
    expect(mcp.status().find((r) => r.name === 'fix')?.state).toBe('connected');
    expect(mcp.takeNotes()).toEqual([]);

    // Denied again is a new state change: a new note.
    await ws.projectServers({ fix: fixture('normal', ws.mark, { env: { CHANGED: '1' } }) });
    prompter.answer = 'deny';
    await mcp.reload('fix');
    expect(mcp.takeNotes()).toEqual([
      'MCP server "fix" is not available (you did not allow it). Do not pretend to use it.',
    ]);
    expect(mcp.takeNotes()).toEqual([]);
    expect(prompter.consents).toHaveLength(3);
  });
});
