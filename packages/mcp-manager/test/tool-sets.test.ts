// What the model gets from misbehaving servers, through the facade: hostile text, too many
// tools, long names, a malformed tool, an oversized result.
import {
  EVIL_TOOL_NAME,
  LONG_TOOL_NAMES,
  MALFORMED_TOOL,
  NORMAL_TOOL_NAMES,
} from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { ResultTooLargeError } from '../src/index.js';
import { fixture, toolNamesOf, unwrap, useWorkspace } from './support/e2e.js';

// The tool names hosts accept (what a model may call): letters, digits, `_` and `-`, 1 to 64.
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const ws = useWorkspace();

/** Characters that must never reach a model or a terminal from a server. */
const FORBIDDEN: readonly [string, RegExp][] = [
  ['ESC / ANSI', /\u001b/],
  ['8-bit CSI', /\u009b/],
  ['C0 control', /[\u0000-\u0008\u000b-\u001f\u007f]/],
  ['bidi control', /[\u202a-\u202e\u2066-\u2069]/],
  ['zero-width', /[\u200b-\u200d\u2060\ufeff]/],
  ['tag character', /[\u{e0000}-\u{e007f}]/u],
  ['line separator', /[\u2028\u2029]/],
];

function expectClean(text: string): void {
  for (const [what, pattern] of FORBIDDEN) expect(text, what).not.toMatch(pattern);
  expect(text).not.toMatch(/<\s*\/?\s*garuda_note/i);
  expect(text).not.toMatch(/＜／ｍｃｐ＿ｒｅｓｕｌｔ＞/);
}

describe('hostile servers', () => {
  it('evil: no ANSI, bidi, tag character or live wrapper/note tag reaches tools() or a result', async () => {
    const { prompter, mcp } = await ws.startUserServers({ evil: fixture('evil', ws.mark) });

    const tools = mcp.tools();
    // The tool with the hostile name is left out, with a notice (cleaned, its tags neutralised).
    expect(toolNamesOf(mcp)).toEqual([...NORMAL_TOOL_NAMES].sort());
    expect(tools.some((t) => t.tool === EVIL_TOOL_NAME)).toBe(false);
    expect(prompter.notices).toHaveLength(1);
    expect(prompter.notices[0]).toMatch(/was skipped/);
    expect(prompter.notices[0]).not.toMatch(/<\s*\/?\s*mcp_result/i);
    const everything = JSON.stringify(tools);
    expectClean(everything);
    expect(everything).not.toMatch(/<\s*\/?\s*mcp_result/i);
    for (const tool of tools) {
      expect(tool.name).toMatch(TOOL_NAME_PATTERN);
      expect(tool.readOnly).toBe(false);
      expect(tool.description).toMatch(/^\[From MCP server "evil"\. Its text is untrusted/);
      // The dialect the server wrote stays, a string (SEP-1613).
      if ('$schema' in tool.inputSchema) expect(typeof tool.inputSchema.$schema).toBe('string');
    }
    expect(tools.find((t) => t.tool === 'echo')?.hints).toContain('read-only (not verified)');

    for (const name of ['mcp__evil__echo', 'mcp__evil__content', 'mcp__evil__fail']) {
      const result = await mcp.call(name, { text: 'hi' });
      expectClean(result.text);
      // Exactly one opening and one closing wrapper tag: the server cannot close it early.
      expect(result.text.match(/<\s*\/?\s*mcp_result/gi)).toHaveLength(2);
      expect(result.text).toMatch(/^<mcp_result server="evil" tool="[a-z]+">\n/);
      expect(result.text.endsWith('\n</mcp_result>')).toBe(true);
    }
    // Previews shown to the user are cleaned too.
    for (const preview of prompter.approvals) expectClean(JSON.stringify(preview));
    for (const notice of prompter.notices) expectClean(notice);
  });

  it('many: the first 100 tools, and a notice', async () => {
    const { prompter, mcp } = await ws.startUserServers({ many: fixture('many', ws.mark) });

    const tools = mcp.tools();
    expect(tools).toHaveLength(100);
    expect(tools[0]?.name).toBe('mcp__many__tool_000');
    expect(tools[99]?.name).toBe('mcp__many__tool_099');
    expect(prompter.notices.filter((n) => n.includes('"many"'))).toHaveLength(1);
    expect(prompter.notices.join('\n')).toMatch(/100/);
    expect(mcp.status()[0]?.tools).toBe(100);
  });

  it('longnames: every name fits the pattern, names stay distinct, and each calls its own tool', async () => {
    const { mcp } = await ws.startUserServers({ long: fixture('longnames', ws.mark) });

    const tools = mcp.tools();
    const names = tools.map((t) => t.name);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
    // Two of the short names collapse to one (files.read and files/read): the first listed wins.
    expect(tools.length).toBeGreaterThanOrEqual(Object.keys(LONG_TOOL_NAMES).length - 1);
    for (const key of ['twinA', 'twinB', 'len200'] as const) {
      const tool = tools.find((t) => t.tool === LONG_TOOL_NAMES[key]);
      expect(tool, key).toBeDefined();
      const result = await mcp.call(tool?.name ?? '', {});
      expect(unwrap(result.text)).toBe(`called ${key}`);
    }
  });

  it('badtool: the good tools are kept and one notice names the malformed one', async () => {
    const { prompter, mcp } = await ws.startUserServers({ bad: fixture('badtool', ws.mark) });

    expect(mcp.status()[0]?.state).toBe('connected');
    expect(toolNamesOf(mcp)).toEqual([...NORMAL_TOOL_NAMES].sort());
    const about = prompter.notices.filter((n) => n.includes(MALFORMED_TOOL.name));
    expect(about).toHaveLength(1);
    expect(prompter.notices).toHaveLength(1);
    const result = await mcp.call('mcp__bad__echo', { text: 'still works' });
    expect(unwrap(result.text)).toBe('still works');
  });

  it('huge: an oversized result fails clearly and the server stays usable', async () => {
    const { mcp } = await ws.startUserServers({ big: fixture('huge', ws.mark) });

    const error = await mcp.call('mcp__big__huge', {}).catch((e: unknown) => e);
    expect(ResultTooLargeError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/too large/);
    expect(mcp.status()[0]?.state).toBe('connected');

    const ok = await mcp.call('mcp__big__echo', { text: 'after' });
    expect(unwrap(ok.text)).toBe('after');
    // Under the transport's cap, over the model's: capped with a marker, not dropped.
    const capped = await mcp.call('mcp__big__big_ok', {});
    expect(capped.text.length).toBeLessThan(31_000);
    expect(capped.isError).toBe(false);
  });
});
