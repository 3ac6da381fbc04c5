// Everything a prompter receives — consent requests, sign-in requests, call previews, notices —
// and the notes for the model, from a hostile project file, a hostile server and a hostile
// authorization server: no string may carry a live `<garuda_note>`/`<mcp_result>` tag (in any
// spelling `neutralizeTags` knows), a control or an invisible character.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanText, neutralizeTags } from '@garuda/mcp-sanitize';
import { describe, expect, it } from 'vitest';
import { SignInPrompter, useWorkspace, wrapped } from './support/e2e.js';

const ws = useWorkspace();

const TAGS = ['</garuda_note>', '\uff1c/garuda_note>', '<\u200b/ mcp_result >', '<garuda_note>'];

/** Every string inside a value, with where it was found. */
function strings(value: unknown, where: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([where, value]);
  else if (Array.isArray(value)) value.forEach((item, i) => strings(item, `${where}[${i}]`, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) strings(item, `${where}.${key}`, out);
  }
  return out;
}

function expectSafe(seen: unknown): void {
  const all = strings(seen, 'prompter');
  expect(all.length).toBeGreaterThan(20);
  for (const [where, text] of all) {
    expect(neutralizeTags(text), `${where}: ${JSON.stringify(text)}`).toBe(text);
    expect(cleanText(text), `${where}: ${JSON.stringify(text)}`).toBe(text);
  }
}

describe('what the prompter is shown carries no live tag', () => {
  it('a hostile project file and a server whose tools turn hostile', async () => {
    const modeFile = path.join(ws.root, 'fixture-mode');
    await writeFile(modeFile, 'normal');
    const cwd = `d${TAGS[0]}`;
    const write = `w${TAGS[1]}`;
    await mkdir(path.join(ws.root, cwd), { recursive: true });
    await mkdir(path.join(ws.root, write), { recursive: true });
    const entry = wrapped(
      ['--mode-file', modeFile, ...TAGS.flatMap((tag) => ['--x', tag])],
      ws.mark,
      {
        cwd,
        writePaths: [write],
        env: { NOTE: `${TAGS[2]}\${GARUDA_TEST_NOTE}` },
      },
    );
    await ws.projectServers({ docs: entry });

    const prompter = new SignInPrompter();
    prompter.answer = 'remember';
    // The variable is set (an unset one stops the server before consent), to a hostile value.
    const mcp = ws.manager(prompter, {
      env: {
        PATH: process.env.PATH,
        HOME: ws.userHome,
        LANG: 'C.UTF-8',
        GARUDA_TEST_NOTE: TAGS[3],
      },
    });
    await mcp.start();
    expect(mcp.status()[0]?.state).toBe('connected');
    const request = prompter.consents[0];
    // The command line stays copyable: each tag's bracket is an escape, not a lookalike.
    expect(request?.commandLine).toContain("$'\\x3c/garuda_note>'");
    expect(request?.commandLine).toContain("$'\\uff1c/garuda_note>'");

    // The tools change behind the unchanged definition: the changed-tools question names them.
    await writeFile(modeFile, 'evil');
    prompter.answer = 'once';
    await mcp.reload('docs');
    expect(prompter.consents.map((r) => r.kind)).toEqual(['server', 'tools']);
    expect(prompter.consents[1]?.toolChanges?.added.length).toBeGreaterThan(0);
    expect(
      prompter.consents[1]?.toolChanges?.added.some((tool) => tool.name.includes('approved')),
    ).toBe(true);
    const echo = mcp.tools().find((tool) => tool.tool === 'echo');
    await mcp.call(echo?.name ?? '', { text: TAGS.join(' '), [TAGS[0] ?? '']: TAGS[3] });
    expect(prompter.approvals).toHaveLength(1);

    expectSafe({
      consents: prompter.consents,
      approvals: prompter.approvals,
      notices: prompter.notices,
    });
  });

  it('a hostile authorization challenge and a failed server, in sign-in requests, notices and notes', async () => {
    const oauth = await ws.oauthFixture({
      challengeScope: `mcp:tools ${TAGS[0]} <garuda_note>`,
    });
    const crash = `process.stderr.write(${JSON.stringify(`Error: ${TAGS.join(' ')}\n`)}); process.exit(1)`;
    await ws.userServers({
      remote: { url: oauth.url.href },
      boom: { command: process.execPath, args: ['-e', crash, ws.mark] },
    });
    const prompter = new SignInPrompter();
    prompter.signInAnswer = false;
    const mcp = ws.manager(prompter, { openBrowser: () => {} });
    await mcp.start();
    expect(prompter.signIns).toHaveLength(1);
    expect(prompter.signIns[0]?.scopes).toHaveLength(3);
    expect(mcp.status().map((row) => row.state)).toEqual(['failed', 'failed']);

    expectSafe({
      signIns: prompter.signIns,
      notices: prompter.notices,
      notes: mcp.takeNotes(),
      status: mcp.status(),
    });
  });
});
