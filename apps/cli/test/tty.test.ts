// garuda-mcp on a real terminal: a pseudo-terminal from util-linux `script`, answering the
// consent prompt with the arrow keys as a person would, and colours on and off; a server's own
// questions on a terminal.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { collect } from './support/run.js';
import { plain, terminalsPerTest } from './support/tty.js';
import { fixtureEntry, type CliWorld } from './support/world.js';

let world: CliWorld;
const onTerminal = terminalsPerTest((created) => (world = created));

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
