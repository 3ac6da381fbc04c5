// Steps 7–9 of the demo: a tool added at runtime, a sign-in, a rug pull; the pin holds.
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { StartCancelledError } from '@garuda/mcp-manager';
import { formatStatus, plural } from '../../format.js';
import { LOCAL, REMOTE } from './demo-world.js';
import { call, type Demo, type Heard } from './demo-kit.js';

/** How long the demo waits for a sign-in through a real browser (`--browser`). */
const SIGN_IN_LIMIT_MS = 120_000;

/** 7: the server adds a tool while it runs; the pin holds it back until it is allowed. */
export async function runtimeTool(demo: Demo, heard: Heard): Promise<void> {
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
export async function signInAndCall(demo: Demo): Promise<void> {
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
export async function rugPull(demo: Demo): Promise<void> {
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
