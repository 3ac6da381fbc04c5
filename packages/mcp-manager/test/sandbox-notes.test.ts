// Read paths and the notes on errors the sandbox caused, through the manager, with real
// sandboxed servers: the `files` fixture writes and reads the paths it is given.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commandLine } from '@garuda/mcp-config';
import { FIXTURE_SERVER, sandboxOutcomes } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CallFailedError, InvalidOptionsError } from '../src/index.js';
import {
  HAS_SANDBOX,
  REPO_ROOT,
  SANDBOX,
  ScriptedPrompter,
  fixture,
  unwrap,
  useWorkspace,
} from './support/e2e.js';

const ws = useWorkspace();
/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes(SANDBOX.kind);

/** The `garuda-mcp add` command a note suggests for the `files` fixture. */
function addCommand(name: string, flags: string[]): string {
  return commandLine({
    command: 'garuda-mcp',
    args: [
      'add',
      name,
      '--replace',
      ...flags,
      '--',
      process.execPath,
      FIXTURE_SERVER,
      'files',
      ws.mark,
    ],
  });
}

describe('sandbox.readPaths, for every server', () => {
  it("never shows what the sandbox hides: that is one server's own readPaths", () => {
    const prompter = new ScriptedPrompter();
    for (const [dir, field] of [
      [path.join(ws.userHome, '.kube'), 'sandbox.readPaths[1]'],
      [path.join(ws.userHome, '.config', 'gcloud', 'x'), 'sandbox.readPaths[1]'],
      [ws.home, 'sandbox.readPaths[1]'],
    ] as const) {
      let error: unknown;
      try {
        ws.manager(prompter, { sandbox: { readPaths: [REPO_ROOT, dir] } });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionsError).option).toBe(field);
      expect((error as InvalidOptionsError).message).toContain('which the sandbox hides');
    }
    // A folder that only holds hidden paths shows none of them: fine.
    expect(() =>
      ws.manager(prompter, { sandbox: { readPaths: [REPO_ROOT, ws.userHome] } }),
    ).not.toThrow();
  });
});

describe.skipIf(!HAS_SANDBOX)('notes on what the sandbox refused', () => {
  it('a write outside the write paths says where and how to allow it; with the write path it works', async () => {
    const granted = ws.path('granted');
    // Under /tmp like the workspace, shown read-only (a sandbox read path): visible, not writable.
    const docs = ws.path('docs');
    await mkdir(granted);
    await mkdir(docs);
    const { mcp } = await ws.startUserServers(
      { fs: fixture('files', ws.mark, { writePaths: [granted] }) },
      { sandbox: { readPaths: [REPO_ROOT, docs] } },
    );
    const target = path.join(docs, 'x.txt');

    const inGranted = await mcp.call('mcp__fs__write_file', {
      path: path.join(granted, 'ok.txt'),
      text: 'fine',
    });
    expect(inGranted).toMatchObject({ isError: false });
    expect(inGranted.text).not.toContain('(note:');

    const refused = await mcp.call('mcp__fs__write_file', { path: target, text: 'x' });
    expect(refused.isError).toBe(true);
    const [result, note] = refused.text.split('\n(note: ');
    expect(unwrap(result ?? '')).toEqual(IS.readOnly.message('open', target));
    // The workspace is under the OS temp folder. On macOS that is under /private (TMPDIR's real
    // path), a system folder the note never suggests: there it asks for a narrower folder.
    const suggested = !docs.startsWith('/private/');
    expect(note).toBe(
      `the sandbox lets MCP server "fs" write only the project folder, its write paths and temp folders; "${target}" is outside them. ` +
        (suggested
          ? `If the user wants to allow it, add "${docs}" to its "writePaths" in "${path.join(ws.home, 'mcp.json')}": ` +
            `${addCommand('fs', ['--write', granted, '--write', docs])})`
          : 'No folder is suggested for it (the home folder or one that holds it, a system folder or a dot-folder): ' +
            'if it should be allowed, the user can name a narrower folder in its "writePaths")'),
    );
    expect(existsSync(target)).toBe(false);

    // The same refusal as a JSON-RPC error: the note ends the error's message.
    const rpc = mcp.call('mcp__fs__write_file_rpc', { path: target, text: 'x' });
    await expect(rpc).rejects.toSatisfy(CallFailedError.isInstance);
    await expect(rpc).rejects.toThrow(
      new RegExp(
        `${IS.readOnly.messagePattern('open', target)} \\(note: the sandbox lets MCP server "fs" write only .* ` +
          `${suggested ? `"${docs}" to its "writePaths" .*` : 'a narrower folder in its "writePaths"'}\\)$`,
      ),
    );

    // Doing what the note says.
    await ws.userServers({ fs: fixture('files', ws.mark, { writePaths: [granted, docs] }) });
    await mcp.reload('fs');
    const allowed = await mcp.call('mcp__fs__write_file', { path: target, text: 'now' });
    expect(allowed).toMatchObject({ isError: false });
    expect(await readFile(target, 'utf8')).toBe('now');
  });

  describe('a credential folder the sandbox hides', () => {
    // A home folder off /tmp, as a real one is: there the sandbox hides ~/.kube and ~/.ssh
    // (under bubblewrap's private /tmp nothing of the host would be visible anyway). Its real
    // path, as the sandbox and the errors name it (on macOS /var is a link to /private/var).
    let home: string;
    beforeEach(async () => {
      home = await realpath(await mkdtemp('/var/tmp/garuda-notes-home-'));
      await mkdir(path.join(home, '.kube'));
      await writeFile(path.join(home, '.kube', 'config'), 'apiVersion: v1\n');
      await mkdir(path.join(home, '.ssh'));
      await writeFile(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    });
    afterEach(async () => {
      await rm(home, { recursive: true, force: true });
    });

    it('is named with --read; with the read path it can be read, never written, and ~/.ssh stays hidden', async () => {
      const kube = path.join(home, '.kube', 'config');
      const { mcp } = await ws.startUserServers(
        { k8s: fixture('files', ws.mark) },
        { userHome: home },
      );

      const hidden = await mcp.call('mcp__k8s__read_file', { path: kube });
      expect(hidden.isError).toBe(true);
      const suggestion =
        `"${kube}" is in "~/.kube", which the sandbox hides from MCP servers (credentials; no server may write there). ` +
        `If the user wants MCP server "k8s" to read it, add "~/.kube" to its "readPaths" in "${path.join(ws.home, 'mcp.json')}": ` +
        addCommand('k8s', ['--read', '~/.kube']);
      // bubblewrap: the hidden folder is empty inside (ENOENT); Seatbelt refuses the read.
      const error = /^<mcp_result server="k8s" tool="read_file">\n(.*)\n/.exec(hidden.text)?.[1];
      expect(error).toEqual(IS.inHidden.message('open', kube));
      expect(hidden.text).toBe(
        `<mcp_result server="k8s" tool="read_file">\n${error}\n</mcp_result>\n(note: ${suggestion})`,
      );
      const write = await mcp.call('mcp__k8s__write_file', { path: kube, text: 'evil' });
      expect(write.text).toMatch(new RegExp(IS.readOnly.messagePattern('open', kube)));
      expect(write.text).toContain(`\n(note: ${suggestion})`);

      await ws.userServers({ k8s: fixture('files', ws.mark, { readPaths: ['~/.kube'] }) });
      await mcp.reload('k8s');
      expect(await mcp.call('mcp__k8s__read_file', { path: kube })).toMatchObject({
        isError: false,
        text: '<mcp_result server="k8s" tool="read_file">\napiVersion: v1\n\n</mcp_result>',
      });
      const stillReadOnly = await mcp.call('mcp__k8s__write_file', { path: kube, text: 'evil' });
      expect(stillReadOnly.text).toContain(
        '\n(note: the sandbox shows "~/.kube" to MCP server "k8s" read-only: no server may write a credential path)',
      );
      expect(await readFile(kube, 'utf8')).toBe('apiVersion: v1\n');
      const key = await mcp.call('mcp__k8s__read_file', {
        path: path.join(home, '.ssh', 'id_rsa'),
      });
      expect(key.isError).toBe(true);
      expect(key.text).toContain('which the sandbox hides from MCP servers');
      expect(key.text).not.toContain('PRIVATE KEY');
    });

    it("a project's read path is on the consent screen; Garuda's own folder is refused at start", async () => {
      const { prompter, mcp } = await ws.startProjectServers(
        {
          k8s: fixture('files', ws.mark, { readPaths: ['~/.kube'] }),
          greedy: fixture('files', ws.mark, { readPaths: [ws.home] }),
        },
        'once',
        { userHome: home },
      );
      // Both start at once: the questions come in either order.
      const k8s = prompter.consents.find((request) => request.server === 'k8s');
      const greedy = prompter.consents.find((request) => request.server === 'greedy');
      expect(k8s?.readPaths).toEqual(['~/.kube']);
      expect(k8s?.warnings).toContain(
        `it may read credentials the sandbox hides from servers: "~/.kube", which is "${path.join(home, '.kube')}", read-only`,
      );
      expect(greedy?.warnings).toContain(
        `it asks to read Garuda's own folder (its tokens and trust): "${ws.home}"; the sandbox refuses that, so it will not start`,
      );
      const status = Object.fromEntries(mcp.status().map((row) => [row.name, row]));
      expect(status.k8s?.state).toBe('connected');
      expect(status.greedy?.state).toBe('failed');
      expect(status.greedy?.detail).toContain(
        `invalid sandbox policy: readPaths[0] "${ws.home}" is Garuda's own folder`,
      );
    });
  });
});
