// `garuda-mcp demo`: the whole story, offline, on an embedded default. A throwaway home and
// project under the OS temp folder, a project server (the demo's stdio server, in the sandbox)
// and the user's own remote server (a small OAuth server on 127.0.0.1, in this process). Each
// step prints what the real commands show; every question is answered by the script, or by a
// person with --interactive. Nothing is left behind: servers stopped, folder removed, also on an
// error and on Ctrl-C.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFile } from 'node:fs/promises';
import {
  CallCancelledError,
  CallDeclinedError,
  McpManager,
  StartCancelledError,
  sandboxText,
  type CallResult,
  type StatusRow,
} from '@garuda/mcp-manager';
import { type McpTool } from '@garuda/mcp-tools';
import { openBrowser } from '@garuda/mcp-oauth';
import { ProcessTransport } from '@garuda/mcp-transport';
import { Client } from '@modelcontextprotocol/client';
import { REVIEW_TOOL } from '@garuda/mcp-gateway';
import { formatStatus, plural, table } from '../format.js';
import type { Output } from '../output.js';
import { createDemoPrompter } from './demo-prompter.js';
import type * as FixturesModule from './fixtures.js';
import { LOCAL, REMOTE, createDemoWorld, type DemoWorld } from './demo-world.js';
import { visible } from './visible.js';
import { CLI_VERSION } from '../version.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Let a person answer the questions (terminal prompts) instead of the script. */
  readonly interactive: boolean;
  /**
   * The program that opens the sign-in page (`--browser`): a program name or path, or
   * `[program, ...args]`; the address is its last argument. Default: a scripted browser, in this
   * process, that follows the sign-in page's redirect to the callback.
   */
  readonly browser?: string | readonly string[] | undefined;
  /** Aborts the demo (Ctrl-C): it stops, cleans up, and resolves with 130. */
  readonly signal: AbortSignal;
}

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

/** How long the demo waits for a sign-in through a real browser (`--browser`). */
const SIGN_IN_LIMIT_MS = 120_000;

type Fixtures = typeof FixturesModule;

/** What the demo hears of a server's runtime change: a tool list change or a held-back note. */
class Heard {
  #waiting: (() => void) | undefined;
  hear(): void {
    this.#waiting?.();
    this.#waiting = undefined;
  }
  /** Resolves at the next change, at an abort, or after {@link RUNTIME_CHANGE_LIMIT_MS}. */
  next(signal: AbortSignal): Promise<void> {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(RUNTIME_CHANGE_LIMIT_MS)]);
    return new Promise((resolve) => {
      const done = () => {
        limit.removeEventListener('abort', done);
        resolve();
      };
      this.#waiting = done;
      limit.addEventListener('abort', done, { once: true });
    });
  }
}

/** What every step uses. */
interface Demo {
  readonly output: Output;
  readonly mcp: McpManager;
  readonly world: DemoWorld;
  readonly fixtures: Fixtures;
  readonly signal: AbortSignal;
  heading(title: string): void;
  say(text: string): void;
  explain(text: string): void;
  row(name: string): StatusRow | undefined;
}

function isInterrupt(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted ||
    StartCancelledError.isInstance(error) ||
    CallCancelledError.isInstance(error) ||
    (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortError'))
  );
}

function unwrap(text: string): string {
  return text.replace(/^<mcp_result [^>]*>\n/, '').replace(/\n<\/mcp_result>$/, '');
}

/** The description a model gets, without the manager's `[From MCP server …]` preamble. */
function ownText(tool: McpTool): string {
  return tool.description.replace(/^\[From MCP server [^\]]*\]\s*/, '');
}

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function noSandboxReason(row: StatusRow): string {
  return row.sandbox.kind === 'none' ? row.sandbox.reason : sandboxText(row.sandbox);
}

/** A call through the manager; a declined call (a person said no) is told, not thrown. */
async function call(
  demo: Demo,
  name: string,
  args: Record<string, unknown>,
): Promise<CallResult | undefined> {
  try {
    return await demo.mcp.call(name, args, { signal: demo.signal });
  } catch (error) {
    if (!CallDeclinedError.isInstance(error)) throw error;
    demo.say('You declined the call, so it did not run (the model would be told so).');
    return undefined;
  }
}

/** 1–2: consent for the project's server, then its start (in the sandbox, if there is one). */
async function startLocal(demo: Demo): Promise<StatusRow | undefined> {
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
function listTools(demo: Demo): void {
  demo.heading('Its tools, as the model sees them');
  demo.say(
    table(
      ['TOOL', 'DESCRIPTION'],
      demo.mcp.tools().map((tool) => [tool.name, shorten(ownText(tool), 64)]),
    ),
  );
}

/** 4: one call and its wrapped result. */
async function callEcho(demo: Demo): Promise<void> {
  demo.heading('A call, and its wrapped result');
  demo.explain(
    `The demo runs in approval mode "balanced", which runs calls of servers declared read-only without asking. The project declares "${LOCAL}" irreversible (destructive), so each of its calls still asks. The result is cleaned, capped and wrapped for the model:`,
  );
  const result = await call(demo, `mcp__${LOCAL}__echo`, { text: 'Hello from the Garuda demo' });
  if (result !== undefined) demo.say(result.text);
}

/** 5: the escape tool tries the usual ways out; the table says what the sandbox blocked. */
async function tryEscape(demo: Demo, local: StatusRow): Promise<void> {
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
function showPoison(demo: Demo): void {
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

/** How long the demo waits for the pin check of a tool added at runtime. */
const RUNTIME_CHANGE_LIMIT_MS = 60_000;

/** 7: the server adds a tool while it runs; the pin holds it back until it is allowed. */
async function runtimeTool(demo: Demo, heard: Heard): Promise<void> {
  const { mcp, signal } = demo;
  demo.heading('A tool added at runtime, held back by the pin');
  demo.explain(
    `"${LOCAL}" adds a tool while it runs and tells the client its tool list changed. The new list goes through the same pin check as a start:`,
  );
  const before = mcp.tools().length;
  // Answered when the pin check is done: the tool list changed (allowed), or the note that the
  // change is not in use (declined).
  const settled = heard.next(signal);
  const result = await call(demo, `mcp__${LOCAL}__update`, {});
  if (result === undefined) return;
  demo.say(result.text);
  await settled;
  const added = mcp.tools().find((tool) => tool.tool === 'publish');
  demo.say(
    added === undefined
      ? `The model's tool list is unchanged (${plural(before, 'tool')}): "publish" is not offered until you allow it.`
      : `You allowed it: the model's tool list now has "${added.name}".`,
  );
}

/** 8: the user's remote server asks for a sign-in; then a call over signed-in HTTP. */
async function signInAndCall(demo: Demo): Promise<void> {
  const { output, mcp, signal, world } = demo;
  demo.heading(`Sign-in to your remote server "${REMOTE}" (OAuth), and a remote call`);
  // A real browser (--browser) waits for a person; the demo waits for it a while, not forever.
  const limit = AbortSignal.any([signal, AbortSignal.timeout(SIGN_IN_LIMIT_MS)]);
  try {
    await output.progress(`Connecting to "${REMOTE}"`, () => mcp.reload(REMOTE, { signal: limit }));
  } catch (error) {
    if (signal.aborted || !StartCancelledError.isInstance(error)) throw error;
    demo.say(
      `No sign-in came back within ${String(SIGN_IN_LIMIT_MS / 60_000)} minutes; the demo goes on without it.`,
    );
  }
  const remote = demo.row(REMOTE);
  demo.say(formatStatus(remote === undefined ? [] : [remote], output.colour));
  if (remote?.state !== 'connected') return;
  const result = await call(demo, `mcp__${REMOTE}__echo`, { text: 'Hello over signed-in HTTP' });
  if (result?.approval?.asked === false) {
    demo.say(output.colour.cyan(`→ ran without asking: ${result.approval.why}`));
  }
  if (result !== undefined) demo.say(result.text);
  demo.explain(
    `The tokens are in ${path.join(world.home, 'mcp-auth.json')} (0600), never printed.`,
  );
}

/** 9: the server's tools change behind the same definition; the pin asks again. */
async function rugPull(demo: Demo): Promise<void> {
  const { output, mcp, signal, world } = demo;
  demo.heading('A silent tool change, caught by the pin');
  demo.explain(
    `"${LOCAL}" is updated behind the same command line (as a package update would do): its tools change, its definition hash does not. The pin of its tools catches it:`,
  );
  await writeFile(world.modeFile, 'changed\n');
  await output.progress(`Restarting "${LOCAL}"`, () => mcp.reload(LOCAL, { signal }));
  const after = demo.row(LOCAL);
  if (after?.state === 'denied') {
    demo.say(
      `"${LOCAL}" is denied: ${after.detail ?? ''}. Its tools are gone from the model's list.`,
    );
  } else {
    demo.say(
      `"${LOCAL}" is ${after?.state ?? 'gone'} now, with ${plural(after?.tools ?? 0, 'tool')}.`,
    );
  }
}

/**
 * Another host in front: an SDK client plays the host (as Claude Desktop would) and starts
 * `garuda-mcp serve` on the demo's home and project. It sees the signed-in remote server's tools
 * under `<server>__<tool>` and calls one; the project server whose tools changed is not offered:
 * `garuda_review` stands in for it, and calling it shows the user the consent form through the
 * host (the demo answers "Deny": the pin holds). When the host goes away, the gateway stops its
 * servers.
 */
/** The text blocks of a tool result. */
function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { type: string; text?: string }[])
    .map((block) => block.text ?? '')
    .join('\n');
}

async function behindTheGateway(demo: Demo): Promise<void> {
  const { output, world, signal } = demo;
  demo.heading('Garuda in front of another host (garuda-mcp serve)');
  demo.explain(
    'A host such as Claude Desktop starts "garuda-mcp serve" (garuda-mcp install claude-desktop writes that entry). Here an MCP client from the SDK plays the host:',
  );
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  const transport = new ProcessTransport({
    command: process.execPath,
    // The demo's own approval mode: the remote server is declared read-only, so its calls run.
    args: [bin, 'serve', '--root', world.root, '--approval-mode', 'balanced'],
    env: {
      ...(Object.fromEntries(
        Object.entries(output.io.env).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      ) as Record<string, string>),
      GARUDA_HOME: world.home,
      // Its servers' homes stay in the throwaway folder too, like those of the demo's manager.
      GARUDA_DATA_DIR: path.join(world.dir, 'gateway-data'),
      GARUDA_SANDBOX_READ: world.sandboxReadPaths.join(':'),
      GARUDA_TOKEN_STORE: 'file',
    },
  });
  // The host shows garuda-mcp's questions (MCP elicitation); the demo's user says no.
  const host = new Client(
    { name: 'demo-host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  host.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: 'Deny' } };
  });
  try {
    await output.progress('The host starts garuda-mcp serve', () =>
      host.connect(transport, { signal }),
    );
    const { tools } = await host.listTools({}, { signal });
    const names = tools.map((tool) => tool.name);
    demo.say(`The host sees ${plural(names.length, 'tool')}: ${names.join(', ')}`);
    if (names.some((name) => name.startsWith(`${LOCAL}__`))) demo.say(`"${LOCAL}" is offered.`);
    else if (names.includes(REVIEW_TOOL)) {
      demo.say(
        `"${LOCAL}" is not offered: its tools changed since you trusted them. ${REVIEW_TOOL} stands in for the question; when it is called, the host shows you the form:`,
      );
      const reviewed = await host.callTool({ name: REVIEW_TOOL, arguments: {} }, { signal });
      demo.say(
        asked
          .at(-1)
          ?.split('\n')
          .slice(0, 2)
          .map((line) => `  ${line}`)
          .join('\n') ?? '  (no question)',
      );
      demo.say(`You answer "Deny" there, so the pin holds: ${textOf(reviewed)}`);
    } else demo.say(`"${LOCAL}" is not offered.`);
    const echo = `${REMOTE}__echo`;
    if (names.includes(echo)) {
      const result = await host.callTool(
        { name: echo, arguments: { text: 'Hello through the gateway' } },
        { signal },
      );
      demo.say(`The host calls ${echo}; its model reads:`);
      demo.say(textOf(result));
      demo.explain(
        'A call that must ask is asked in the host (MCP elicitation), or refused with the command that would allow it.',
      );
    }
  } finally {
    await host.close().catch(() => {});
  }
  demo.say('The host went away: the gateway stopped every server it had started.');
}

/**
 * Runs the demo: prints each step on `output`, answers every question itself (or lets a person
 * answer with `interactive`), and cleans up whatever happens.
 *
 * @param output - Where the demo prints (the story on stdout, progress on stderr).
 * @param options - See {@link DemoOptions}.
 * @returns The exit code: 0 when the story ran to its end, 130 when interrupted, 1 when it
 *   could not run.
 * @example
 * ```ts
 * const code = await runDemo(output, { interactive: false, signal: io.signal });
 * ```
 */
export async function runDemo(output: Output, options: DemoOptions): Promise<number> {
  // Ctrl-C arrives as the caller's signal, or, while a terminal prompt has the keyboard in raw
  // mode, from the prompt itself: both stop the demo the same way.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  const { signal } = stop;
  const c = output.colour;
  const started = performance.now();
  let step = 0;
  let world: DemoWorld | undefined;
  let mcp: McpManager | undefined;
  let code = 0;
  try {
    if (signal.aborted) throw new Error('interrupted');
    const fixtures: Fixtures = await import('./fixtures.js');
    world = await createDemoWorld(fixtures, { tmpdir: output.io.env.TMPDIR, signal });
    const browser = fixtures.scriptedBrowser({ timeoutMs: 10_000 });
    const command = options.browser;
    const demoWorld = world;
    const heard = new Heard();
    const manager = new McpManager({
      root: world.root,
      home: world.home,
      userHome: output.io.userHome,
      // The demo's servers keep their homes in its throwaway folder, not in the user's data.
      serverHomesDir: path.join(world.dir, 'server-homes'),
      env: output.io.env,
      clientInfo: { name: 'garuda-mcp-demo', version: CLI_VERSION },
      approvalMode: 'balanced',
      prompter: createDemoPrompter(output, {
        interactive: options.interactive,
        paste: command !== undefined,
        onInterrupt: () => stop.abort(new Error('interrupted in a prompt')),
        answers: { server: 'remember', tools: 'deny' },
        onNotice: (text) => {
          if (text.includes('not in use')) heard.hear();
        },
      }),
      onChange: (change) => {
        if (change.server === LOCAL && change.kind === 'tools') heard.hear();
      },
      sandboxReadPaths: world.sandboxReadPaths,
      openBrowser: async (url, how) => {
        if (command !== undefined) {
          const opened = await openBrowser(url, {
            allowHttpLoopback: how.allowHttpLoopback,
            command,
            signal,
          });
          if (!opened) {
            output.out(
              c.yellow(
                `Could not open the sign-in page with ${JSON.stringify(command)}: open the address above yourself.`,
              ),
            );
          }
          return opened;
        }
        const visit = await browser.open(url);
        output.out(
          c.dim(
            visit.error === undefined
              ? `(scripted browser: opened the sign-in page, which redirected to the callback; the callback answered ${String(visit.callbackStatus)})`
              : `(scripted browser: ${visit.error})`,
          ),
        );
        return true;
      },
    });
    mcp = manager;
    const demo: Demo = {
      output,
      mcp: manager,
      world: demoWorld,
      fixtures,
      signal,
      heading: (title) => {
        step += 1;
        output.out();
        output.out(c.bold(`${String(step)}. ${title}`));
      },
      say: (text) => output.out(text),
      explain: (text) => output.out(c.dim(text)),
      row: (name) => manager.status().find((row) => row.name === name),
    };

    output.out(
      `${c.bold('Garuda MCP demo')}: everything runs on this machine, nothing to configure.`,
    );
    output.out(`  ${c.dim('folder ')} ${world.dir}  (thrown away at the end)`);
    output.out(`  ${c.dim('project')} ${world.root}`);
    output.out(`           .garuda/mcp.json brings the stdio server "${LOCAL}"`);
    output.out(`  ${c.dim('home   ')} ${world.home}`);
    output.out(
      `           mcp.json has your own remote server "${REMOTE}" at ${world.remoteUrl.href} (behind OAuth)`,
    );

    const local = await startLocal(demo);
    if (local !== undefined) {
      listTools(demo);
      await callEcho(demo);
      await tryEscape(demo, local);
      showPoison(demo);
      await runtimeTool(demo, heard);
    }
    await signInAndCall(demo);
    if (local !== undefined) await rugPull(demo);
    demo.heading('The status table (garuda-mcp status)');
    demo.say(formatStatus(manager.status(), c));
    await behindTheGateway(demo);
  } catch (error) {
    if (isInterrupt(error, signal)) {
      output.err('Interrupted: the demo stopped; cleaning up.');
      code = 130;
    } else {
      output.err(`The demo failed: ${error instanceof Error ? error.message : String(error)}`);
      code = 1;
    }
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    await mcp?.close();
    await world?.cleanup();
  }
  if (signal.aborted) code = 130;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    output.out();
    output.out(
      `Done in ${seconds} s: every server stopped, the throwaway folder removed.${options.interactive ? '' : ' Run it with --interactive to answer the questions yourself.'}`,
    );
  } else {
    output.err(
      `Cleaned up after ${seconds} s: no server left running, the throwaway folder removed.`,
    );
  }
  return code;
}
