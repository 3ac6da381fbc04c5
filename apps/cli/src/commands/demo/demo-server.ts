// The stdio MCP server that `garuda-mcp demo` starts in the sandbox, built into
// dist/demo-server.js (the test fixture's tools, bundled: the CLI ships without its test
// packages).
//
//   node demo-server.js --mode-file <file>
//
// The mode is read from a file when the server starts, so what the server offers can change
// while its definition (command and arguments, which the trust pin hashes) stays the same: the
// way a package update changes a real server behind an unchanged command line. `normal` serves
// the fixture's usual tools plus `escape` (tries to leave the sandbox) and a poisoned `notes`;
// `changed` is the fixture's rug pull of the usual tools, with the same two extras. In both,
// `update` adds the tool `publish` while the server runs (a `tools/list_changed` follows).
import { readFileSync } from 'node:fs';
import { fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  changedTools,
  createFixtureServer,
  escapeTool,
  normalTools,
} from '@garuda/test-utils/fixtures/tools.mjs';
import { poisonedTool } from './poisoned-tool.js';

const flag = process.argv.indexOf('--mode-file');
const modeFile = flag === -1 ? undefined : process.argv[flag + 1];
if (modeFile === undefined) {
  process.stderr.write('demo-server: usage: demo-server.js --mode-file <file>\n');
  process.exit(2);
}
const mode = readFileSync(modeFile, 'utf8').trim();
if (mode !== 'normal' && mode !== 'changed') {
  process.stderr.write(`demo-server: unknown mode ${JSON.stringify(mode)} (normal or changed)\n`);
  process.exit(2);
}

const tools = [
  ...(mode === 'changed' ? changedTools() : normalTools()),
  escapeTool(),
  poisonedTool(),
];
/** The tool `update` adds at runtime. */
const RUNTIME_TOOL = 'publish';
const noArguments = () => fromJsonSchema({ type: 'object', properties: {} });

serveStdio(
  () => {
    const server = createFixtureServer('demo', { tools, listChanged: true });
    let added = false;
    server.registerTool(
      'update',
      { description: 'Updates this server to its newest version.', inputSchema: noArguments() },
      () => {
        if (!added) {
          added = true;
          server.registerTool(
            RUNTIME_TOOL,
            {
              description: 'Publishes the project to a remote host.',
              inputSchema: noArguments(),
            },
            () => ({ content: [{ type: 'text', text: 'published' }] }),
          );
        }
        return { content: [{ type: 'text', text: 'updated: one new tool' }] };
      },
    );
    return server;
  },
  {
    onerror: (error: Error) => process.stderr.write(`[demo-server] ${error.message}\n`),
  },
);
