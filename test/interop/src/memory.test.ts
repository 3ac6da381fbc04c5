// @modelcontextprotocol/server-memory, all nine tools, in the sandbox. Every call starts a new
// server process, so the knowledge graph lives only in its file (MEMORY_FILE_PATH, given with
// --env, in a folder given with --write): each change is checked on disk.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { sandboxOutcomes } from '@garuda/test-utils';
import { expect, it } from 'vitest';
import { HAS_SANDBOX, SANDBOX, SERVER_JS, bodyOf, noteOf } from './interop-world.js';
import { describeServer, expectOk, expectToolError, type ToolContext } from './server-suite.js';

/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes(SANDBOX.kind);

/** The shape's memory file. */
interface Memory {
  readonly file: string;
}

/** One line of the memory file (JSON Lines). */
type Line =
  | { type: 'entity'; name: string; entityType: string; observations: string[] }
  | { type: 'relation'; from: string; to: string; relationType: string };

async function lines(ctx: ToolContext<Memory>): Promise<Line[]> {
  const text = await readFile(ctx.fixture.file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

const ADA = 'Ada Lovelace';
const ENGINE = 'Analytical Engine';
const WROTE_FOR = { from: ADA, to: ENGINE, relationType: 'wrote programs for' };

describeServer<Memory>('@modelcontextprotocol/server-memory', {
  shapes: [
    {
      title: 'added with garuda-mcp add --write <dir> --env MEMORY_FILE_PATH=<dir>/memory.jsonl',
      server: 'memory',
      async setup(world) {
        const dir = await world.folder('memory');
        const file = path.join(dir, 'memory.jsonl');
        await world.ok(
          ['add', 'memory', '--write', dir, '--env', `MEMORY_FILE_PATH=${file}`, '--'].concat(
            'node',
            SERVER_JS.memory,
          ),
        );
        return { file };
      },
    },
    {
      title:
        "added with --env MEMORY_FILE_PATH='${GARUDA_SERVER_HOME}/memory.jsonl': kept in its own home",
      server: 'memory',
      async setup(world) {
        await world.ok(
          [
            'add',
            'memory',
            '--env',
            'MEMORY_FILE_PATH=${GARUDA_SERVER_HOME}/memory.jsonl',
            '--',
          ].concat('node', SERVER_JS.memory),
        );
        const home = path.join(
          world.userHome,
          '.local',
          'share',
          'garuda-mcp',
          'servers',
          'memory',
        );
        return { file: path.join(home, 'memory.jsonl') };
      },
    },
    {
      title: "the project's .garuda/mcp.json written in the mcpServers shape (type stdio)",
      server: 'server-memory',
      async setup(world) {
        const dir = await world.folder('memory');
        const file = path.join(dir, 'memory.jsonl');
        world.always('--trust-project');
        await world.garudaFile('project', {
          mcpServers: {
            'server-memory': {
              type: 'stdio',
              command: 'node',
              args: [SERVER_JS.memory],
              env: { MEMORY_FILE_PATH: file },
              writePaths: [dir],
            },
          },
        });
        return { file };
      },
    },
  ],
  tools: {
    async create_entities(ctx) {
      const call = await ctx.call('create_entities', {
        entities: [
          { name: ADA, entityType: 'person', observations: ['wrote the first program'] },
          { name: ENGINE, entityType: 'machine', observations: ['designed by Babbage'] },
        ],
      });
      expectOk(call);
      expect(JSON.parse(bodyOf(call.result))).toHaveLength(2);
      expect(await lines(ctx)).toEqual([
        {
          type: 'entity',
          name: ADA,
          entityType: 'person',
          observations: ['wrote the first program'],
        },
        {
          type: 'entity',
          name: ENGINE,
          entityType: 'machine',
          observations: ['designed by Babbage'],
        },
      ]);
    },
    async create_relations(ctx) {
      const call = await ctx.call('create_relations', { relations: [WROTE_FOR] });
      expectOk(call);
      expect(JSON.parse(bodyOf(call.result))).toEqual([WROTE_FOR]);
      expect(await lines(ctx)).toContainEqual({ type: 'relation', ...WROTE_FOR });
    },
    async add_observations(ctx) {
      const call = await ctx.call('add_observations', {
        observations: [{ entityName: ADA, contents: ['born in 1815'] }],
      });
      expectOk(call);
      expect(JSON.parse(bodyOf(call.result))).toEqual([
        { entityName: ADA, addedObservations: ['born in 1815'] },
      ]);
      expect(await lines(ctx)).toContainEqual({
        type: 'entity',
        name: ADA,
        entityType: 'person',
        observations: ['wrote the first program', 'born in 1815'],
      });
    },
    async read_graph(ctx) {
      const call = await ctx.call('read_graph');
      expectOk(call);
      const graph = JSON.parse(bodyOf(call.result)) as {
        entities: unknown[];
        relations: unknown[];
      };
      expect(graph.entities).toHaveLength(2);
      expect(graph.relations).toEqual([WROTE_FOR]);
    },
    async search_nodes(ctx) {
      const call = await ctx.call('search_nodes', { query: '1815' });
      expectOk(call);
      const graph = JSON.parse(bodyOf(call.result)) as { entities: { name: string }[] };
      expect(graph.entities.map((entity) => entity.name)).toEqual([ADA]);
    },
    async open_nodes(ctx) {
      const call = await ctx.call('open_nodes', { names: [ENGINE] });
      expectOk(call);
      const graph = JSON.parse(bodyOf(call.result)) as { entities: { name: string }[] };
      expect(graph.entities.map((entity) => entity.name)).toEqual([ENGINE]);
    },
    async delete_observations(ctx) {
      const call = await ctx.call('delete_observations', {
        deletions: [{ entityName: ADA, observations: ['born in 1815'] }],
      });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('Observations deleted successfully');
      expect(await lines(ctx)).toContainEqual({
        type: 'entity',
        name: ADA,
        entityType: 'person',
        observations: ['wrote the first program'],
      });
    },
    async delete_relations(ctx) {
      const call = await ctx.call('delete_relations', { relations: [WROTE_FOR] });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('Relations deleted successfully');
      expect((await lines(ctx)).filter((line) => line.type === 'relation')).toEqual([]);
    },
    async delete_entities(ctx) {
      const call = await ctx.call('delete_entities', { entityNames: [ENGINE] });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('Entities deleted successfully');
      expect((await lines(ctx)).map((line) => line.type === 'entity' && line.name)).toEqual([ADA]);
    },
  },
  more(ctx, shape) {
    if (shape.server !== 'memory') return;
    it.runIf(HAS_SANDBOX)(
      'without MEMORY_FILE_PATH it cannot write its default file beside its code',
      async () => {
        const { world } = ctx();
        const beside = path.join(path.dirname(SERVER_JS.memory), 'memory.jsonl');
        await world.ok(['add', 'memory-default', '--', 'node', SERVER_JS.memory]);
        try {
          const call = await world.call('memory-default/create_entities', {
            entities: [{ name: 'x', entityType: 'y', observations: [] }],
          });
          expectToolError(call);
          const body = bodyOf(call.result);
          expect(body).toMatch(
            new RegExp(`^${IS.readOnly.pattern}, open '.*\\/memory\\.jsonl\\.[0-9a-f]+\\.tmp'$`),
          );
          const tmp = body.slice(body.indexOf("'") + 1, -1);
          expect(path.dirname(tmp)).toBe(path.dirname(SERVER_JS.memory));
          expect(existsSync(beside)).toBe(false);
          // garuda-mcp says the sandbox refused it (it suggests no folder under node_modules/.pnpm).
          expect(noteOf(call.result)).toContain(
            'the sandbox lets MCP server "memory-default" write only the project folder, its ' +
              `write paths and temp folders; "${tmp}" is outside them.`,
          );
        } finally {
          // Only a broken sandbox would have let it write into node_modules.
          await rm(beside, { force: true });
        }
      },
    );
  },
});
