// `garuda-mcp demo`: the whole story, offline, on an embedded default. A throwaway home and
// project under the OS temp folder, a project server (the demo's stdio server, in the sandbox)
// and the user's own remote server (a small OAuth server on 127.0.0.1, in this process). Each
// step prints what the real commands show; every question is answered by the script, or by a
// person with --interactive. Nothing is left behind: servers stopped, folder removed, also on an
// error and on Ctrl-C.
import path from 'node:path';
import { McpManager } from '@garuda/mcp-manager';
import { openBrowser } from '@garuda/mcp-oauth';
import { formatStatus } from '../../format.js';
import type { Output } from '../../output.js';
import { createDemoPrompter } from './demo-prompter.js';
import { LOCAL, REMOTE, createDemoWorld, type DemoWorld } from './demo-world.js';
import { CLI_VERSION } from '../../version.js';
import { Heard, isInterrupt, type Demo, type Fixtures } from './demo-kit.js';
import { callEcho, listTools, showPoison, startLocal, tryEscape } from './demo-sandbox-steps.js';
import { rugPull, runtimeTool, signInAndCall } from './demo-pin-steps.js';
import { behindTheGateway } from './demo-gateway.js';

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

/** The demo's manager: its throwaway folders, its prompter, and a browser (scripted or yours). */
function demoManager(
  output: Output,
  options: DemoOptions,
  world: DemoWorld,
  fixtures: Fixtures,
  heard: Heard,
  stop: AbortController,
): McpManager {
  const { signal } = stop;
  const c = output.colour;
  const browser = fixtures.scriptedBrowser({ timeoutMs: 10_000 });
  const command = options.browser;
  return new McpManager({
    root: world.root,
    home: world.home,
    userHome: output.io.userHome,
    env: output.io.env,
    clientInfo: { name: 'garuda-mcp-demo', version: CLI_VERSION },
    rules: { approvalMode: 'balanced' },
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
    sandbox: {
      readPaths: world.sandboxReadPaths,
      // The demo's servers keep their homes in its throwaway folder, not in the user's data.
      serverHomesDir: path.join(world.dir, 'server-homes'),
    },
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
}

/** Where the demo runs, before its first step. */
function introduce(output: Output, world: DemoWorld): void {
  const c = output.colour;
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
}

/** The steps, in order; those of the project's server only when it started. */
async function tellStory(demo: Demo, heard: Heard): Promise<void> {
  const c = demo.output.colour;
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
  demo.say(formatStatus(demo.mcp.status(), c));
  await behindTheGateway(demo);
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
    const heard = new Heard();
    const manager = demoManager(output, options, world, fixtures, heard, stop);
    mcp = manager;
    const demo: Demo = {
      output,
      mcp: manager,
      world,
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
    introduce(output, world);
    await tellStory(demo, heard);
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
