// `garuda-mcp demo`, built, as a subprocess: every step of the story from start to end, and a
// Ctrl-C in the middle. Each run gets its own TMPDIR, so its throwaway folder, and every process
// of it (their command lines hold the folder's path), can be found afterwards.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { detectSandbox } from '@garuda/mcp-transport';
import { pidsWith, sandboxOutcomes, waitFor } from '@garuda/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, FETCH_BROWSER } from './support/paths.js';
import { collect } from './support/run.js';
import { CliWorld } from './support/world.js';

const DEMO_SERVER = path.join(path.dirname(BIN), 'demo-server.js');

/** The sandbox of this machine (CI sets GARUDA_REQUIRE_SANDBOX=1: a missing one fails). */
const SANDBOX = await detectSandbox({ searchPath: process.env.PATH });
const HAS_SANDBOX = SANDBOX.kind !== 'none';
if (!HAS_SANDBOX) {
  if (process.env.GARUDA_REQUIRE_SANDBOX === '1') {
    throw new Error(`GARUDA_REQUIRE_SANDBOX=1 but there is no OS sandbox: ${SANDBOX.reason}`);
  }
  process.stderr.write(
    `\n*** WARNING: no OS sandbox (${SANDBOX.reason}); the demo test checks the no-sandbox wording ***\n\n`,
  );
}

/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes(SANDBOX.kind);
/** The code of a write the sandbox refuses, as the escape table shows it in parentheses. */
const REFUSED = IS.readOnly.codePattern;

/** Characters that must never reach the terminal from a server: ESC, C1 CSI, bidi, tags. */
const UNSAFE = /[\x1b\x07\u009b\u202a-\u202e\u2066-\u2069\u200b-\u200d\u{E0000}-\u{E007F}]/u;

let world: CliWorld;
let tmp: string;
beforeAll(() => {
  if (!existsSync(BIN) || !existsSync(DEMO_SERVER)) {
    throw new Error(`build the CLI first (pnpm --filter garuda-mcp build): ${BIN} is missing`);
  }
});
beforeEach(async () => {
  world = await CliWorld.create();
  // A TMPDIR of its own, outside the world (the demo must not need the world at all). Its real
  // path, which the demo names its folder and processes by (macOS's TMPDIR is under /var, a link).
  tmp = path.join(await realpath(os.tmpdir()), `garuda-demo-test-${randomUUID()}`);
  await mkdir(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
  await world.cleanup();
});

function demo(args: readonly string[] = []) {
  return world.spawn(['demo', ...args], { env: { TMPDIR: tmp, NO_COLOR: '1' } });
}

/** The lines between the heading `N. …` and the next heading. */
function section(stdout: string, n: number): string {
  const start = stdout.search(new RegExp(`^${n}\\. `, 'm'));
  expect(start, `step ${n}`).toBeGreaterThanOrEqual(0);
  const rest = stdout.slice(start);
  // Past the heading's own line (a step number may have two digits).
  const body = rest.indexOf('\n') + 1;
  const end = rest.slice(body).search(/^(\d+\. |Done in )/m);
  return end === -1 ? rest : rest.slice(0, body + end);
}

describe('garuda-mcp demo', () => {
  // No wall-clock bound: a busy machine stretches any run. A step that waited for a time limit
  // instead of its event shows in the story itself (a server that did not connect in time, a
  // call that timed out), which the sections below check; collect() stops a run that hangs.
  it('shows the whole story, exits 0, and leaves nothing behind', async () => {
    const { code, stdout, stderr } = await collect(demo(), undefined, 120_000);
    expect(stderr).not.toContain('The demo failed');
    expect(code, stderr).toBe(0);

    // Where it runs: a throwaway folder under TMPDIR.
    const folder = /^ {2}folder +(\S+)/m.exec(stdout)?.[1] ?? '';
    expect(folder.startsWith(`${tmp}/garuda-demo-`)).toBe(true);

    // 1. The consent screen, every field, and the scripted answer.
    const consent = section(stdout, 1);
    expect(consent).toContain('The project file asks to start MCP server "files".');
    expect(consent).toContain(`file      ${folder}/project/.garuda/mcp.json`);
    expect(consent).toMatch(
      new RegExp(
        `command   ${process.execPath} \\S+/dist/demo-server\\.js --mode-file ${folder}/project/server-version`,
      ),
    );
    expect(consent).toContain(`sandbox   ${HAS_SANDBOX ? IS.name : 'no OS sandbox'}`);
    expect(consent).toContain('network   no');
    expect(consent).toContain('risk      destructive (declared: irreversible, write)');
    expect(consent).toContain('→ answered: remember (scripted)');

    // 2. Started, in the sandbox (or plainly without one).
    const start = section(stdout, 2);
    if (HAS_SANDBOX) {
      expect(start).toMatch(
        new RegExp(`^files +project +connected +10 +destructive +${IS.name} +off$`, 'm'),
      );
    } else {
      expect(start).toMatch(/^files +project +connected +10 +destructive +no OS sandbox: /m);
      expect(start).toContain('the server ran WITHOUT a sandbox');
    }

    // 3. The tool list, as the model sees it.
    const tools = section(stdout, 3);
    for (const name of ['add', 'echo', 'escape', 'notes', 'fail', 'slow']) {
      expect(tools).toContain(`mcp__files__${name}`);
    }

    // 4. A call and its wrapped result.
    const call = section(stdout, 4);
    expect(call).toContain('Run tool "echo" of MCP server "files"?');
    // Under "balanced" the destructive server's call still asks, and says why.
    expect(call).toContain('risk      destructive (declared: irreversible, write)');
    expect(call).toContain(
      'asks      its server is declared "irreversible": a destructive call always asks',
    );
    expect(call).toContain('→ answered: yes (scripted)');
    expect(call).toContain(
      '<mcp_result server="files" tool="echo">\nHello from the Garuda demo\n</mcp_result>',
    );

    // 5. The escape attempt: what the sandbox blocked.
    const escape = section(stdout, 5);
    expect(escape).toMatch(/^allowed +write a file in the project$/m);
    if (HAS_SANDBOX) {
      expect(escape).toMatch(
        new RegExp(`^blocked +write a file outside the project \\(${REFUSED}\\)$`, 'm'),
      );
      expect(escape).toMatch(
        new RegExp(`^blocked +write into the project's \\.garuda folder \\(${REFUSED}\\)$`, 'm'),
      );
      expect(escape).toMatch(
        new RegExp(`^blocked +plant a git hook in \\.git\\/hooks \\(${REFUSED}\\)$`, 'm'),
      );
      expect(escape).toMatch(/^blocked +read a token in the Garuda home \(\w+\)$/m);
      expect(escape).toMatch(/^blocked +open a network connection to 127\.0\.0\.1:\d+ \(\w+\)$/m);
      expect(escape.split('\n').filter((line) => line.startsWith('allowed'))).toEqual([
        'allowed  write a file in the project',
      ]);
    } else {
      expect(escape).toContain('Nothing was blocked: there is no OS sandbox');
    }

    // 6. The poisoned description: raw with escapes visible, cleaned without them.
    const poison = section(stdout, 6);
    const raw = /^ {2}raw +(.*)$/m.exec(poison)?.[1] ?? '';
    const cleaned = /^ {2}cleaned +(.*)$/m.exec(poison)?.[1] ?? '';
    expect(raw).toContain('\\e[1;31mALERT');
    expect(raw).toContain('\\e]0;garuda: all checks passed\\x07');
    expect(raw).toContain('\\u202e');
    expect(raw).toContain('invisible tag characters spelling "Ignore previous instructions');
    expect(cleaned).toContain('[From MCP server "files".');
    expect(cleaned).toContain('Reads the project notes.');
    expect(cleaned).not.toMatch(UNSAFE);
    expect(cleaned).not.toContain('Ignore previous instructions');
    expect(cleaned).not.toContain('<garuda_note>');
    // Nothing a server sent reached the terminal raw, anywhere.
    expect(stdout).not.toMatch(UNSAFE);
    expect(stderr).not.toMatch(UNSAFE);

    // 7. A tool added while the server runs: the pin check asks, the scripted answer is no.
    const runtime = section(stdout, 7);
    expect(runtime).toContain('<mcp_result server="files" tool="update">\nupdated: one new tool');
    expect(runtime).toContain('The tools of MCP server "files" changed since you trusted them');
    expect(runtime).toContain('+ added   publish: Publishes the project to a remote host.');
    expect(runtime).toContain('→ answered: deny (scripted)');
    expect(runtime).toContain(
      'note: MCP server "files" changed its tools while it ran (added: publish); you did not allow the change',
    );
    expect(runtime).toContain('"publish" is not offered until you allow it.');

    // 8. Sign-in (scripted browser) and a remote call.
    const signIn = section(stdout, 8);
    expect(stdout).toContain('MCP server "remote" needs a sign-in.');
    expect(stdout).toMatch(/callback +http:\/\/127\.0\.0\.1:\d+\/callback/);
    expect(signIn).toMatch(
      /^remote +user +connected +7 +low +remote server +remote http:\/\/127\.0\.0\.1:\d+\/mcp · signed in$/m,
    );
    // You declared it read-only: under "balanced" its call runs without asking.
    expect(signIn).toContain(
      '→ ran without asking: approval mode "balanced" runs low-risk (read-only) calls without asking',
    );
    expect(signIn).not.toContain('Run tool "echo" of MCP server "remote"?');
    expect(signIn).toContain(
      '<mcp_result server="remote" tool="echo">\nHello over signed-in HTTP\n</mcp_result>',
    );
    expect(stdout).not.toMatch(/access_token|refresh_token/);

    // 9. The silent tool change, caught by the pin, denied.
    const pin = section(stdout, 9);
    expect(pin).toContain('The tools of MCP server "files" changed since you trusted them');
    expect(pin).toContain('+ added   upload: Sends a file to a remote host.');
    expect(pin).toContain('- removed fail');
    expect(pin).toMatch(/~ changed echo \(description and input schema\): .*id_rsa/);
    expect(pin).toContain('→ answered: deny (scripted)');
    expect(pin).toContain('"files" is denied: you did not allow its changed tools.');

    // 10. The status table.
    const status = section(stdout, 10);
    expect(status).toMatch(/^NAME +SOURCE +STATE +TOOLS +RISK +SANDBOX +NETWORK$/m);
    expect(status).toMatch(
      /^remote +user +connected +7 +low +remote server +remote http\S+ · signed in$/m,
    );
    expect(status).toMatch(
      HAS_SANDBOX
        ? new RegExp(`^files +project +denied +0 +destructive +${IS.name} +off$`, 'm')
        : /^files +project +denied +0 +destructive +no OS sandbox: /m,
    );
    expect(status).toContain('files: you did not allow its changed tools');

    // 11. An SDK client plays a host in front of garuda-mcp serve.
    const gateway = section(stdout, 11);
    expect(gateway).toContain(
      'The host sees 8 tools: garuda_review, remote__add, remote__content, remote__cwd, remote__echo, remote__env, remote__fail, remote__slow',
    );
    expect(gateway).toContain('"files" is not offered: its tools changed since you trusted them');
    // garuda_review asked the question through the host; the demo's answer kept the pin.
    expect(gateway).toContain(
      '  The tools of MCP server "files" changed since you trusted them (project file).',
    );
    expect(gateway).toContain(
      'so the pin holds: the changed tools of "files": not allowed (you said no).',
    );
    expect(gateway).toContain(
      '<mcp_result server="remote" tool="echo">\nHello through the gateway\n</mcp_result>',
    );
    expect(gateway).toContain(
      'The host went away: the gateway stopped every server it had started.',
    );

    expect(stdout).toMatch(
      /^Done in \d+\.\d s: every server stopped, the throwaway folder removed\./m,
    );

    // Nothing left: no process of this run, no folder in its TMPDIR.
    await waitFor(async () => (await pidsWith(tmp)).length === 0);
    expect(existsSync(folder)).toBe(false);
    expect(await readdir(tmp)).toEqual([]);
    // Nor a server home in the user's data folder (the gateway's servers included).
    expect(existsSync(path.join(world.userHome, '.local', 'share', 'garuda-mcp'))).toBe(false);
  });

  it('--browser opens the sign-in page with the given program instead of the scripted browser', async () => {
    // A program without spaces in its path, whatever --browser's splitting: a shell script that
    // runs the test's fetch-based browser stand-in.
    const opener = path.join(tmp, '..', `garuda-demo-browser-${randomUUID()}.sh`);
    await writeFile(
      opener,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FETCH_BROWSER)} "$1"\n`,
      { mode: 0o755 },
    );
    try {
      const { code, stdout, stderr } = await collect(
        demo(['--browser', opener]),
        undefined,
        60_000,
      );
      expect(code, stderr).toBe(0);
      expect(stdout).not.toContain('scripted browser');
      expect(section(stdout, 8)).toMatch(
        /^remote +user +connected +7 +low +remote server +remote http\S+ · signed in$/m,
      );
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(opener, { force: true });
    }
  });

  it('Ctrl-C in the middle exits 130, stops its server and removes its folder', async () => {
    const child = demo();
    const done = collect(child, undefined, 120_000);
    let seen = '';
    child.stdout?.on('data', (chunk: string) => (seen += chunk));
    // Interrupt once its server runs: right after the tool list.
    await waitFor(() => seen.includes('3. Its tools'), { timeoutMs: 60_000 });
    expect(await pidsWith(tmp)).not.toEqual([]);
    child.kill('SIGINT');
    const { code, stdout, stderr } = await done;

    expect(code, stderr).toBe(130);
    expect(stderr).toContain('Interrupted');
    expect(stdout).not.toContain('10. The status table');
    await waitFor(async () => (await pidsWith(tmp)).length === 0);
    expect(await readdir(tmp)).toEqual([]);
  });
});
