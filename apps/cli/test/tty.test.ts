// garuda-mcp on a real terminal: a pseudo-terminal from util-linux `script`, answering the
// consent prompt with the arrow keys as a person would, and colours on and off.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOAuthFixture, waitFor } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliWorld, collect, fixtureEntry } from './cli-support.js';

let world: CliWorld;
beforeEach(async () => {
  world = await CliWorld.create();
});
/** Every terminal a test opened: closed after it (a failed test must leave nothing running). */
const terminals: ChildProcess[] = [];
afterEach(async () => {
  for (const child of terminals.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const closed = new Promise((resolve) => child.once('close', resolve));
    // Closing the terminal hangs up on garuda-mcp, which then stops its servers and cleans up.
    child.kill('SIGTERM');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  await world.cleanup();
});

/** The terminal output without its CSI sequences (colours, cursor moves). */
function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Runs `garuda-mcp args…` on a pseudo-terminal; `output` grows as the terminal shows more. */
function onTerminal(args: readonly string[], env: Record<string, string> = {}) {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  // util-linux `script` takes the command with -c; the BSD one (macOS) after the log file.
  const scriptArgs =
    process.platform === 'linux'
      ? ['-q', '-e', '-f', '-c', command, '/dev/null']
      : ['-q', '/dev/null', '/bin/sh', '-c', command];
  const child = spawn('script', scriptArgs, {
    cwd: world.root,
    env: { ...world.env(env), TERM: 'xterm-256color', COLUMNS: '160', LINES: '50' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const screen = { output: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (screen.output += chunk));
  terminals.push(child);
  return { child, screen };
}

describe('on a terminal', () => {
  it('asks the consent question; "remember" (arrow up, Enter) starts the server and is kept', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal') });
    const { child, screen } = onTerminal(['status']);
    await waitFor(() => screen.output.includes('Allow MCP server "theirs"'), { timeoutMs: 60_000 });
    // The full consent screen came first.
    expect(screen.output).toContain('The project file asks to start MCP server "theirs"');
    expect(screen.output).toMatch(/Yes, and remember it/);
    child.stdin.write('\u001b[A'); // from "No" (the default) up to "Yes, and remember it"
    await waitFor(() => /❯ Yes, and remember it/.test(screen.output), { timeoutMs: 60_000 });
    child.stdin.write('\r');
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(0);
    expect(plain(screen.output)).toMatch(/theirs\s+project\s+connected/);
    // On a terminal the state is coloured.
    expect(screen.output).toContain('\u001b[32mconnected');

    // Remembered: without a terminal it now starts with no question.
    const again = await world.run(['status', '--json']);
    const rows = (JSON.parse(again.stdout) as { servers: { name: string; state: string }[] })
      .servers;
    expect(rows).toEqual([expect.objectContaining({ name: 'theirs', state: 'connected' })]);
    expect(again.stderr).not.toContain('Declined');
  });

  it('"always allow" a tool (arrow up, Enter): the next call runs unasked, until trust forget', async () => {
    await world.userServers({ fx: fixtureEntry('normal') });
    const { child, screen } = onTerminal(['call', 'fx/echo', '{"text":"first"}'], {
      NO_COLOR: '1',
    });
    await waitFor(() => screen.output.includes('Run it?'), { timeoutMs: 60_000 });
    expect(plain(screen.output)).toContain('Yes, and always allow fx/echo');
    child.stdin.write('\u001b[A'); // from "No" (the default) up to "always"
    await waitFor(() => /❯ Yes, and always allow/.test(plain(screen.output)), {
      timeoutMs: 60_000,
    });
    child.stdin.write('\r');
    expect((await collect(child, undefined, 120_000)).code).toBe(0);
    expect(plain(screen.output)).toContain('first');

    // No terminal and no --yes: the grant answers.
    const again = await world.run(['call', 'fx/echo', '{"text":"second"}']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/→ ran without asking: you chose to always allow this tool/);
    expect((await world.run(['trust', 'list'])).stdout).toMatch(
      /^fx\s+user\s+\S+\s+\d+ tools\s+echo$/m,
    );
    expect((await world.run(['trust', 'forget', 'fx'])).code).toBe(0);
    expect((await world.run(['call', 'fx/echo', '{"text":"third"}'])).code).not.toBe(0);
  });

  it('"No" denies the server; NO_COLOR turns colours off; read paths are on the screen', async () => {
    await world.projectServers({ theirs: { ...fixtureEntry('normal'), readPaths: ['~/.kube'] } });
    const { child, screen } = onTerminal(['status'], { NO_COLOR: '1' });
    await waitFor(() => screen.output.includes('Allow MCP server "theirs"'), { timeoutMs: 60_000 });
    expect(plain(screen.output)).toMatch(/^ +reads +~\/\.kube\r?$/m);
    expect(plain(screen.output)).toContain(
      'it may read credentials the sandbox hides from servers: "~/.kube"',
    );
    child.stdin.write('\r'); // the default is "No"
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(0);
    const table = screen.output.slice(screen.output.indexOf('NAME'));
    expect(table).toMatch(/theirs\s+project\s+denied/);
    expect(table).not.toMatch(/\u001b\[3\dm/);
  });

  it('Ctrl-C at the consent prompt ends with 130 and starts nothing', async () => {
    await world.projectServers({ theirs: fixtureEntry('normal') });
    const { child, screen } = onTerminal(['status']);
    await waitFor(() => screen.output.includes('Allow MCP server "theirs"'), { timeoutMs: 60_000 });
    child.stdin.write('\u0003');
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(130);
    expect(plain(screen.output)).not.toMatch(/theirs\s+project\s+connected/);
  });
});

describe('a server asks, on a terminal', () => {
  it('a form starts from its defaults; the person edits it and sends it', async () => {
    await world.userServers({ ask: fixtureEntry('asker') });
    const { child, screen } = onTerminal(
      ['call', 'ask/ask_form', '{"form":"hostile"}', '--yes', '--json'],
      { NO_COLOR: '1' },
    );
    const next = async (text: string) =>
      waitFor(() => plain(screen.output).includes(text), { timeoutMs: 60_000 });
    await next('MCP server "ask" asks you to fill in a form.');
    // "Pick" has no default (the server's was not one of its options): it must be answered first.
    await next('"Pick" is required');
    await next('Fix the answers first:');
    child.stdin.write('\r'); // Edit the answers
    await next('Note ALERT (optional):');
    child.stdin.write('hello\r');
    await next('Pick:');
    child.stdin.write('\r'); // the first option, "ok"
    await next('Send these answers?');
    child.stdin.write('\r'); // Send them
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(0);
    expect(plain(screen.output)).toContain(
      'answer: {\\"action\\":\\"accept\\",\\"content\\":{\\"note\\":\\"hello\\",\\"pick\\":\\"ok\\"}}',
    );
  });

  it('a page opens only after a yes, in the browser the person chose', async () => {
    await world.userServers({ ask: fixtureEntry('asker') });
    const opened = path.join(world.root, 'opened.txt');
    const browser = fileURLToPath(new URL('./fixtures/record-browser.mjs', import.meta.url));
    const url = 'https://xn--pypal-4ve.com/login';
    const ask = () =>
      onTerminal(
        [
          'call',
          'ask/ask_url',
          JSON.stringify({ url }),
          '--yes',
          '--json',
          '--browser',
          `${process.execPath} ${browser} ${opened}`,
        ],
        { NO_COLOR: '1' },
      );
    const first = ask();
    await waitFor(() => plain(first.screen.output).includes('Open it in your browser?'), {
      timeoutMs: 60_000,
    });
    expect(plain(first.screen.output)).toContain("warning: the site's name is punycode");
    first.child.stdin.write('\r'); // the default is no
    expect((await collect(first.child, undefined, 120_000)).code).toBe(0);
    expect(existsSync(opened)).toBe(false);
    expect(plain(first.screen.output)).toContain('\\"action\\":\\"decline\\"');

    const second = ask();
    await waitFor(() => plain(second.screen.output).includes('Open it in your browser?'), {
      timeoutMs: 60_000,
    });
    second.child.stdin.write('y\r');
    expect((await collect(second.child, undefined, 120_000)).code).toBe(0);
    expect(plain(second.screen.output)).toContain('\\"action\\":\\"accept\\"');
    expect(await readFile(opened, 'utf8')).toBe(`${url}\n`);
  });
});

describe('install on a terminal', () => {
  it('asks to write the entry, then separately whether to move the host\u2019s servers behind it', async () => {
    const file = path.join(world.userHome, '.cursor', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      '{\n  "mcpServers": {\n    "notes": { "command": "notes-server" }\n  }\n}\n',
    );
    const { child, screen } = onTerminal(['install', 'cursor'], { NO_COLOR: '1' });
    const next = async (text: string) =>
      waitFor(() => plain(screen.output).includes(text), { timeoutMs: 60_000 });
    await next('Write it to');
    expect(plain(screen.output)).toMatch(/^\s+notes\s+cursor\s+user\s+notes-server\r?$/m);
    child.stdin.write('y\r');
    await next('Move 1 server behind the gateway');
    child.stdin.write('y\r');
    const result = await collect(child, undefined, 120_000);
    expect(result.code).toBe(0);
    expect(plain(screen.output)).toContain('cursor: moved 1 server behind the gateway: notes');
    const after = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: object };
    expect(Object.keys(after.mcpServers)).toEqual(['garuda']);
  });
});

describe('sign-in on a terminal', () => {
  it('login: the address a browser on another machine ended on, pasted at the prompt, signs in', async () => {
    const oauth = await startOAuthFixture();
    try {
      await world.userServers({ linear: { url: oauth.url.href } });
      const pasteFile = path.join(world.root, 'redirect.txt');
      const browser = fileURLToPath(new URL('./fixtures/paste-browser.mjs', import.meta.url));
      const { child, screen } = onTerminal([
        'login',
        'linear',
        '--browser',
        `${process.execPath} ${browser} ${pasteFile}`,
      ]);
      await waitFor(() => plain(screen.output).includes('paste the address'), {
        timeoutMs: 60_000,
      });
      // The "browser" stopped at the redirect; the person copies its address and pastes it.
      let pasted = '';
      await waitFor(
        async () => (pasted = await readFile(pasteFile, 'utf8').catch(() => '')) !== '',
        { timeoutMs: 60_000 },
      );
      expect(pasted).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
      child.stdin.write(`${pasted}\r`);
      const result = await collect(child, undefined, 120_000);
      expect(result.code).toBe(0);
      expect(plain(screen.output)).toContain('Signed in to MCP server linear');
      expect(oauth.counts.tokensIssued).toBe(1);
    } finally {
      await oauth.close();
    }
  });
});

describe('the demo on a terminal', () => {
  it('demo --interactive: a person answers each question, and the story follows the answers', async () => {
    const { child, screen } = onTerminal(['demo', '--interactive'], { NO_COLOR: '1' });
    /** Waits for `question` to be asked after `context` was shown, then types `keys`. */
    const answer = async (context: string, question: string, keys: string) => {
      await waitFor(
        () => {
          const text = plain(screen.output);
          const at = text.lastIndexOf(context);
          return at !== -1 && text.includes(question, at);
        },
        { timeoutMs: 60_000 },
      ).catch((error: unknown) => {
        throw new Error(
          `no "${question}" after "${context}" in:\n${plain(screen.output).slice(-1500)}`,
          {
            cause: error,
          },
        );
      });
      child.stdin.write(keys);
    };
    await answer('The project file asks to start', 'Allow MCP server "files"', '\u001b[A\r'); // remember
    await answer('"Hello from the Garuda demo"', 'Run it?', 'y\r');
    await answer('"secretFile"', 'Run it?', 'y\r');
    await answer('Run tool "update"', 'Run it?', 'y\r');
    await answer('+ added   publish', 'Allow the changed tools', '\r'); // no: the default
    await answer('needs a sign-in', 'Sign in now?', '\r'); // yes is the default
    // The remote server is declared read-only: under the demo's "balanced" mode it does not ask.
    await answer('- removed fail', 'Allow the changed tools', '\r'); // no: the default
    const result = await collect(child, undefined, 120_000);
    const text = plain(screen.output);
    expect(result.code).toBe(0);
    expect(text).toContain('Hello from the Garuda demo\r\n</mcp_result>');
    expect(text).toMatch(/Hello over signed-in HTTP\s*\r?\n<\/mcp_result>/);
    expect(text).toContain('→ ran without asking: approval mode "balanced"');
    expect(text).toContain('"publish" is not offered until you allow it.');
    expect(text).toMatch(/files\s+project\s+denied/);
    expect(text).toMatch(/Done in [\d.]+ s/);
  });
});

describe('a terminal that goes away', () => {
  it('closing the terminal mid-question (SIGHUP) stops the demo and removes its throwaway folder', async () => {
    const { child, screen } = onTerminal(['demo', '--interactive'], { NO_COLOR: '1' });
    await waitFor(() => plain(screen.output).includes('Allow MCP server "files"'), {
      timeoutMs: 60_000,
    });
    const folder = /folder\s+(\/\S+garuda-demo-\S+)/.exec(plain(screen.output))?.[1];
    expect(folder).toBeDefined();
    expect(existsSync(folder ?? '')).toBe(true);
    child.kill('SIGTERM'); // script closes the terminal: garuda-mcp gets SIGHUP
    await collect(child, undefined, 120_000);
    await waitFor(() => !existsSync(folder ?? ''), { timeoutMs: 60_000 });
  });
});
