// Steps 1–6 of the demo: consent, the sandbox, a call, an escape attempt, a poisoned tool.
import path from 'node:path';
import { sandboxText, type StatusRow } from '@garuda/mcp-manager';
import { formatStatus, table } from '../../format.js';
import { LOCAL } from './demo-world.js';
import { visible } from './visible.js';
import { call, noSandboxReason, ownText, shorten, unwrap, type Demo } from './demo-kit.js';

/** What the escape tool tries, in words. Attempts the demo does not set up are not shown. */
const ATTEMPTS: Readonly<Record<string, string>> = {
  writeRoot: 'write a file in the project',
  writeOutside: 'write a file outside the project',
  writeGaruda: "write into the project's .garuda folder",
  writeGitHooks: 'plant a git hook in .git/hooks',
  appendGitConfig: 'change .git/config',
  readSecret: 'read a token in the Garuda home',
  listSecretDir: 'list the Garuda home',
  connect: 'open a network connection',
  userNamespace: 'create a user namespace (unshare -U)',
};

/**
 * What each OS sandbox does to the demo's server, in words: bubblewrap gives it a private /tmp
 * and a network namespace with nothing in it; Seatbelt (macOS) refuses by path rule, leaves /tmp
 * the machine's own, and gives it no network at all.
 */
const CONTAINED: Readonly<Record<'bwrap' | 'seatbelt', { limits: string; stopped: string }>> = {
  bwrap: {
    limits:
      "it may write only in the project and a private /tmp, has no network, and cannot see Garuda's home or your credential files",
    stopped:
      'a read-only file system outside the project, a hidden Garuda home, and a network of its own with nothing in it',
  },
  seatbelt: {
    limits:
      "it may write only in the project and /tmp (on macOS shared with this machine's other programs), has no network, and cannot see Garuda's home or your credential files",
    stopped:
      'rules that refuse every write outside the project, a hidden Garuda home, and no network at all',
  },
};

/** 1–2: consent for the project's server, then its start (in the sandbox, if there is one). */
export async function startLocal(demo: Demo): Promise<StatusRow | undefined> {
  const { output, mcp, signal } = demo;
  demo.heading(`A project asks to start its MCP server "${LOCAL}"`);
  demo.explain(
    'A server a repository brings runs nothing before you allow it. The consent screen shows everything that decides what runs:',
  );
  await output.progress(`Starting "${LOCAL}"`, () => mcp.start({ only: [LOCAL], signal }));
  const local = demo.row(LOCAL);
  if (local?.state !== 'connected') {
    demo.heading(`"${LOCAL}" did not start`);
    demo.say(formatStatus(local === undefined ? [] : [local], output.colour));
    demo.explain('The steps that need it are skipped.');
    return undefined;
  }
  const { sandbox } = local;
  const sandboxed = sandbox.kind === 'bwrap' || sandbox.kind === 'seatbelt';
  demo.heading(sandboxed ? 'It starts in the sandbox' : 'It starts, without a sandbox');
  demo.say(formatStatus([local], output.colour));
  if (sandboxed) {
    demo.explain(`${sandboxText(sandbox)}: ${CONTAINED[sandbox.kind].limits}.`);
  } else {
    demo.say(
      output.colour.yellow(
        `No OS sandbox on this machine (${noSandboxReason(local)}): the server ran WITHOUT a sandbox, with only the allowlisted environment. Install bubblewrap (Linux) to see it contained.`,
      ),
    );
  }
  return local;
}

/** 3: the tools as the model sees them. */
export function listTools(demo: Demo): void {
  demo.heading('Its tools, as the model sees them');
  demo.say(
    table(
      ['TOOL', 'DESCRIPTION'],
      demo.mcp.tools().map((tool) => [tool.name, shorten(ownText(tool), 64)]),
    ),
  );
}

/** 4: one call and its wrapped result. */
export async function callEcho(demo: Demo): Promise<void> {
  demo.heading('A call, and its wrapped result');
  demo.explain(
    `The demo runs in approval mode "balanced", which runs calls of servers declared read-only without asking. The project declares "${LOCAL}" irreversible (destructive), so each of its calls still asks. The result is cleaned, capped and wrapped for the model:`,
  );
  const result = await call(demo, `mcp__${LOCAL}__echo`, { text: 'Hello from the Garuda demo' });
  if (result !== undefined) demo.say(result.text);
}

/** 5: the escape tool tries the usual ways out; the table says what the sandbox blocked. */
export async function tryEscape(demo: Demo, local: StatusRow): Promise<void> {
  const { world, output } = demo;
  const c = output.colour;
  const { sandbox } = local;
  const sandboxed = sandbox.kind === 'bwrap' || sandbox.kind === 'seatbelt';
  demo.heading(
    sandboxed
      ? 'An escape attempt, denied by the sandbox'
      : 'An escape attempt (no sandbox here to deny it)',
  );
  demo.explain(`The server's "escape" tool tries the usual ways out of a sandbox:`);
  const result = await call(demo, `mcp__${LOCAL}__escape`, {
    root: world.root,
    outside: path.join(world.dir, 'outside-the-project.txt'),
    secretFile: world.secretFile,
    netHost: '127.0.0.1',
    netPort: world.port,
  });
  if (result === undefined) return;
  const report = JSON.parse(unwrap(result.text)) as Record<
    string,
    { ok: boolean; code?: string; detail?: string }
  >;
  const lines: string[][] = [];
  for (const attempt of demo.fixtures.ESCAPE_ATTEMPTS) {
    const outcome = report[attempt];
    const words = ATTEMPTS[attempt];
    if (outcome === undefined || words === undefined || outcome.code === 'SKIPPED') continue;
    const what = attempt === 'connect' ? `${words} to 127.0.0.1:${String(world.port)}` : words;
    if (!outcome.ok) {
      lines.push(['blocked', `${what} (${outcome.code ?? 'refused'})`]);
    } else if (attempt === 'listSecretDir' && !(outcome.detail ?? '').includes('demo-token')) {
      // The home is replaced by an empty folder inside the sandbox: the listing works, on nothing.
      lines.push(['hidden', `${what} (inside the sandbox it is an empty folder)`]);
    } else {
      lines.push(['allowed', what]);
    }
  }
  demo.say(
    table(['RESULT', 'ATTEMPT'], lines, (column, cell) =>
      column === 0 ? (cell === 'allowed' ? c.yellow(cell) : c.green(cell)) : cell,
    ),
  );
  if (sandboxed) {
    demo.explain(
      `Writing in the project is its job. Everything else was stopped by the sandbox, not by the server: ${CONTAINED[sandbox.kind].stopped}.`,
    );
  } else {
    demo.say(
      c.yellow(
        `Nothing was blocked: there is no OS sandbox (${noSandboxReason(local)}). What it wrote is in the throwaway folder, removed at the end.`,
      ),
    );
  }
}

/** 6: the poisoned description as sent (escapes made visible) and as the model gets it. */
export function showPoison(demo: Demo): void {
  const { fixtures, output } = demo;
  const c = output.colour;
  demo.heading('A poisoned tool description, cleaned');
  const poisoned = demo.mcp.tools().find((tool) => tool.tool === fixtures.POISONED_TOOL);
  demo.explain(
    `The "${fixtures.POISONED_TOOL}" tool's description, as the server sent it (escapes made visible here; printed raw it would recolour, retitle and clear this terminal):`,
  );
  demo.say(`  ${c.red('raw    ')} ${visible(fixtures.POISONED_DESCRIPTION)}`);
  demo.explain('What the model gets instead:');
  demo.say(`  ${c.green('cleaned')} ${poisoned?.description ?? '(missing)'}`);
}
