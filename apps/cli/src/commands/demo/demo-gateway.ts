// The demo's last step: another host in front, through garuda-mcp serve.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessTransport } from '@garuda/mcp-transport';
import { Client } from '@modelcontextprotocol/client';
import { REVIEW_TOOL } from '@garuda/mcp-gateway';
import { plural } from '../../format.js';
import { LOCAL, REMOTE } from './demo-world.js';
import type { Demo } from './demo-kit.js';

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

export async function behindTheGateway(demo: Demo): Promise<void> {
  const { output, world, signal } = demo;
  demo.heading('Garuda in front of another host (garuda-mcp serve)');
  demo.explain(
    'A host such as Claude Desktop starts "garuda-mcp serve" (garuda-mcp install claude-desktop writes that entry). Here an MCP client from the SDK plays the host:',
  );
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  const transport = new ProcessTransport({
    command: process.execPath,
    // The demo's own approval mode: the remote server is declared read-only, so its calls run.
    // `--start eager`: every server starts before the host's first list, so the one whose tools
    // changed is caught before the host lists (serve's default, lazy, would list its pinned
    // tools and catch the change when a call starts it).
    args: [bin, 'serve', '--root', world.root, '--approval-mode', 'balanced', '--start', 'eager'],
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
