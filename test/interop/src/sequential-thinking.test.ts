// @modelcontextprotocol/server-sequential-thinking: its one tool, in the sandbox, a plain
// thought and a branch. Every call is a new server process, so the history is one thought long.
import { expect } from 'vitest';
import { SERVER_JS, bodyOf } from './interop-world.js';
import { describeServer, expectOk } from './server-suite.js';

describeServer<undefined>('@modelcontextprotocol/server-sequential-thinking', {
  shapes: [
    {
      title: 'added with garuda-mcp add --env DISABLE_THOUGHT_LOGGING=true',
      server: 'thinking',
      async setup(world) {
        await world.ok(
          ['add', 'thinking', '--env', 'DISABLE_THOUGHT_LOGGING=true', '--'].concat(
            'node',
            SERVER_JS.sequentialThinking,
          ),
        );
        return undefined;
      },
    },
    {
      title: 'a Claude Code .mcp.json in the project, imported',
      server: 'server-sequential-thinking',
      async setup(world) {
        world.always('--trust-project');
        await world.claudeProjectFile({
          'server-sequential-thinking': {
            type: 'stdio',
            command: 'node',
            args: [SERVER_JS.sequentialThinking],
          },
        });
        await world.ok(['import', '--from', 'claude', '--all']);
        return undefined;
      },
    },
  ],
  tools: {
    async sequentialthinking(ctx) {
      const first = await ctx.call('sequentialthinking', {
        thought: 'The interop suite should call every tool.',
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
      });
      expectOk(first);
      expect(JSON.parse(bodyOf(first.result))).toEqual({
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
        branches: [],
        thoughtHistoryLength: 1,
      });
      // A number past the total raises the total; a branch is named in the reply.
      const branch = await ctx.call('sequentialthinking', {
        thought: 'Or only the ones that can work without a model.',
        thoughtNumber: 3,
        totalThoughts: 2,
        nextThoughtNeeded: false,
        branchFromThought: 1,
        branchId: 'alternative',
      });
      expectOk(branch);
      expect(JSON.parse(bodyOf(branch.result))).toEqual({
        thoughtNumber: 3,
        totalThoughts: 3,
        nextThoughtNeeded: false,
        branches: ['alternative'],
        thoughtHistoryLength: 1,
      });
    },
  },
});
