// install, login and the demo on a real terminal (a pseudo-terminal from util-linux `script`), and
// a terminal that goes away mid-question.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOAuthFixture, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { collect } from './support/run.js';
import { plain, terminalsPerTest } from './support/tty.js';
import { type CliWorld } from './support/world.js';

let world: CliWorld;
const onTerminal = terminalsPerTest((created) => (world = created));

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
