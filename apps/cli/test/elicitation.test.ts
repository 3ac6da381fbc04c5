// A server's questions (elicitation) without a terminal: declined with how to answer them, or a
// form answered with its defaults under --accept-defaults. The terminal side is in tty.test.ts.
import { ASKER_DEFAULTS } from '@garuda/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliWorld, fixtureEntry } from './support/world.js';

let world: CliWorld;
beforeEach(async () => {
  world = await CliWorld.create();
});
afterEach(async () => {
  await world.cleanup();
});

/** The answer the `asker` fixture reported, parsed from the call's `--json` output. */
function answerOf(stdout: string): unknown {
  const result = JSON.parse(stdout) as { text: string };
  const match = /answer: (\{.*\})/s.exec(result.text);
  if (match === null) throw new Error(`no answer in ${result.text}`);
  return JSON.parse(match[1]!);
}

/** `garuda-mcp call ask/<tool> <args> --yes --json flags…`, run without a terminal. */
function callAsker(tool: string, args: Record<string, string>, ...flags: string[]) {
  return world.run(['call', `ask/${tool}`, JSON.stringify(args), '--yes', '--json', ...flags]);
}

describe.each([
  ['2025 revisions', { FIXTURE_ERA: 'legacy' }],
  ['2026-07-28', {}],
] as const)('a server asks, without a terminal (%s)', (_era, env) => {
  beforeEach(async () => {
    await world.userServers({ ask: { ...fixtureEntry('asker'), env: { ...env } } });
  });

  it('a form is shown, then declined with how to answer it', async () => {
    const run = await callAsker('ask_form', { form: 'all' });
    expect(run.code).toBe(0);
    expect(answerOf(run.stdout)).toEqual({ action: 'decline' });
    expect(run.stderr).toContain('MCP server "ask" asks you to fill in a form.');
    expect(run.stderr).toMatch(/Your name\s+Ada\s+\(text, 1–50 characters, required\)/);
    expect(run.stderr).toMatch(/Size\s+Medium\s+\(one of: Small, Medium, Large\)/);
    expect(run.stderr).toContain(
      'Declined: answer the form of MCP server "ask" (no terminal to ask; run the command on a terminal to answer it).',
    );
  });

  it('--accept-defaults sends the defaults, or declines a form they do not answer', async () => {
    const run = await callAsker('ask_form', { form: 'all' }, '--accept-defaults');
    expect(run.code).toBe(0);
    expect(answerOf(run.stdout)).toEqual({ action: 'accept', content: ASKER_DEFAULTS });
    expect(run.stderr).toContain('→ answered with its defaults (--accept-defaults)');

    const hostile = await callAsker('ask_form', { form: 'hostile' }, '--accept-defaults');
    expect(answerOf(hostile.stdout)).toEqual({ action: 'decline' });
    expect(hostile.stderr).toContain(
      'Declined: the defaults of the form of MCP server "ask" do not answer it ("Pick" is required).',
    );
    // Nothing the server wrote reaches the terminal uncleaned.
    expect(hostile.stderr).not.toMatch(/[\u001b\u0007\u202e\u2066-\u2069]/u);
  });

  it('a page is shown in full and never opened without a terminal', async () => {
    const run = await callAsker(
      'ask_url',
      { url: 'https://pay.example.com/checkout?order=42' },
      '--accept-defaults',
    );
    expect(answerOf(run.stdout)).toEqual({ action: 'decline' });
    expect(run.stderr).toContain('MCP server "ask" asks you to open a page.');
    expect(run.stderr).toContain('https://pay.example.com/checkout?order=42');
    expect(run.stderr).toContain('pay.example.com (the server runs on this computer)');
    expect(run.stderr).toContain(
      'Declined: open the page MCP server "ask" asks for (no terminal to ask; run the command on a terminal to answer it).',
    );
  });
});
