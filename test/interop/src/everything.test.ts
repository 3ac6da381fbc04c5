// @modelcontextprotocol/server-everything, every tool it lists, over stdio in the sandbox and
// over Streamable HTTP on 127.0.0.1, and its prompts and resources. garuda-mcp declares
// elicitation (form and URL) and nothing else (no sampling, roots or tasks), so the server leaves
// the tools that need those out; its elicitation tools are asked without a terminal, so the
// question is declined and the server says so.
import { expect, it } from 'vitest';
import { startEverythingHttp } from './everything-http.js';
import { HAS_SANDBOX, SERVER_JS, UNSHARED_VARIABLE, bodyOf, noteOf } from './interop-world.js';
import {
  describeServer,
  expectOk,
  expectToolError,
  type Shape,
  type ToolContext,
} from './server-suite.js';

/** How the shape reaches the server, and the variable its environment must show. */
interface Reach {
  readonly transport: 'stdio' | 'http';
  readonly variable: readonly [name: string, value: string];
}

/** The tools server-everything registers only for a client that offers what they need. */
const NEEDS_CLIENT_CAPABILITIES = [
  'get-roots-list',
  'trigger-elicitation-request-async',
  'trigger-sampling-request',
  'trigger-sampling-request-async',
];

const GREETING = 'INTEROP_GREETING';
const HTTP_MARK = 'INTEROP_SERVED_OVER';

/** A small file for gzip-file-as-resource, as a data: URI (no network needed). */
const HELLO = `data:text/plain;base64,${Buffer.from('hello from garuda\n').toString('base64')}`;

const shapes: Shape<Reach>[] = [
  {
    title: 'over stdio, added with garuda-mcp add --env',
    server: 'everything',
    async setup(world) {
      await world.ok(
        ['add', 'everything', '--env', `${GREETING}=from-add`, '--'].concat(
          'node',
          SERVER_JS.everything,
          'stdio',
        ),
      );
      return { transport: 'stdio', variable: [GREETING, 'from-add'] };
    },
  },
  {
    title: 'over stdio, a Claude Code .mcp.json in the project, imported',
    server: 'server-everything',
    async setup(world) {
      world.always('--trust-project');
      await world.claudeProjectFile({
        'server-everything': {
          type: 'stdio',
          command: 'node',
          args: [SERVER_JS.everything, 'stdio'],
          env: { [GREETING]: 'from-mcp-json' },
        },
      });
      await world.ok(['import', '--from', 'claude', '--all']);
      return { transport: 'stdio', variable: [GREETING, 'from-mcp-json'] };
    },
  },
  {
    title: 'over Streamable HTTP on 127.0.0.1, added with garuda-mcp add --url',
    server: 'everything-http',
    remote: true,
    async setup(world) {
      const http = await startEverythingHttp({ mark: world.mark, env: { [HTTP_MARK]: 'add' } });
      world.defer(http.stop);
      await world.ok(['add', 'everything-http', '--url', http.url]);
      return { transport: 'http', variable: [HTTP_MARK, 'add'] };
    },
  },
  {
    title: 'over Streamable HTTP on 127.0.0.1, your mcp.json in the mcpServers shape',
    server: 'server-everything-http',
    remote: true,
    async setup(world) {
      const http = await startEverythingHttp({
        mark: world.mark,
        env: { [HTTP_MARK]: 'mcp-json' },
      });
      world.defer(http.stop);
      await world.garudaFile('user', {
        mcpServers: { 'server-everything-http': { type: 'streamable-http', url: http.url } },
      });
      return { transport: 'http', variable: [HTTP_MARK, 'mcp-json'] };
    },
  },
];

type Ctx = ToolContext<Reach>;

describeServer<Reach>('@modelcontextprotocol/server-everything', {
  shapes,
  tools: {
    async echo(ctx) {
      const call = await ctx.call('echo', { message: 'hello from garuda' });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('Echo: hello from garuda');
    },
    async 'get-annotated-message'(ctx) {
      const call = await ctx.call('get-annotated-message', {
        messageType: 'success',
        includeImage: true,
      });
      expectOk(call);
      expect(bodyOf(call.result)).toMatch(
        /^Operation completed successfully\n\[image: image\/png, \d+ bytes, not shown\]$/,
      );
    },
    async 'get-env'(ctx: Ctx) {
      const call = await ctx.call('get-env');
      expectOk(call);
      const env = JSON.parse(bodyOf(call.result)) as Record<string, string>;
      const [name, value] = ctx.fixture.variable;
      expect(env[name]).toBe(value);
      // A sandboxed server gets an allowlisted environment plus its own entries, nothing else.
      expect(
        Object.keys(env).filter((key) => key === UNSHARED_VARIABLE || /^GARUDA_/.test(key)),
      ).toEqual([]);
    },
    async 'get-resource-links'(ctx) {
      const call = await ctx.call('get-resource-links', { count: 2 });
      expectOk(call);
      expect(
        bodyOf(call.result).match(/^\[resource link: demo:\/\/resource\/dynamic\//gm),
      ).toHaveLength(2);
    },
    async 'get-resource-reference'(ctx) {
      const call = await ctx.call('get-resource-reference', {
        resourceType: 'Text',
        resourceId: 3,
      });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('[resource: demo://resource/dynamic/text/3');
    },
    async 'get-structured-content'(ctx) {
      const call = await ctx.call('get-structured-content', { location: 'Chicago' });
      expectOk(call);
      expect(JSON.parse(bodyOf(call.result))).toEqual({
        temperature: expect.any(Number),
        conditions: expect.any(String),
        humidity: expect.any(Number),
      });
    },
    async 'get-sum'(ctx) {
      const call = await ctx.call('get-sum', { a: 2, b: 40 });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('The sum of 2 and 40 is 42.');
    },
    async 'get-tiny-image'(ctx) {
      const call = await ctx.call('get-tiny-image');
      expectOk(call);
      expect(bodyOf(call.result)).toMatch(/^\[image: image\/png, \d+ bytes, not shown\]$/m);
    },
    async 'gzip-file-as-resource'(ctx) {
      const link = await ctx.call('gzip-file-as-resource', { name: 'hello.txt.gz', data: HELLO });
      expectOk(link);
      expect(bodyOf(link.result)).toBe(
        '[resource link: demo://resource/session/hello.txt.gz hello.txt.gz]',
      );
      const embedded = await ctx.call('gzip-file-as-resource', {
        name: 'hello.txt.gz',
        data: HELLO,
        outputType: 'resource',
      });
      expectOk(embedded);
      expect(bodyOf(embedded.result)).toMatch(
        /^\[resource: demo:\/\/resource\/session\/hello\.txt\.gz, application\/gzip, \d+ bytes, not shown\]$/,
      );
    },
    async 'simulate-research-query'(ctx) {
      // Needs MCP tasks (taskSupport "required"), which garuda-mcp does not offer.
      const call = await ctx.call('simulate-research-query', { topic: 'sandboxes' });
      expectToolError(call);
      expect(bodyOf(call.result)).toBe(
        "MCP error -32601: Tool simulate-research-query requires task augmentation (taskSupport: 'required')",
      );
    },
    async 'toggle-simulated-logging'(ctx) {
      // Each call is a new session, so the toggle always starts it.
      const call = await ctx.call('toggle-simulated-logging');
      expectOk(call);
      expect(bodyOf(call.result)).toMatch(/^Started simulated, random-leveled logging/);
    },
    async 'toggle-subscriber-updates'(ctx) {
      const call = await ctx.call('toggle-subscriber-updates');
      expectOk(call);
      expect(bodyOf(call.result)).toMatch(/^Started simulated resource updated notifications/);
    },
    async 'trigger-long-running-operation'(ctx) {
      // garuda-mcp asks for progress, and shows it on stderr (a line, without a terminal).
      const call = await ctx.call('trigger-long-running-operation', { duration: 2, steps: 2 });
      expectOk(call);
      expect(bodyOf(call.result)).toBe(
        'Long running operation completed. Duration: 2 seconds, Steps: 2.',
      );
      expect(call.stderr).toMatch(/trigger-long-running-operation: 1 of 2 \(50%\)/);
    },
    async 'trigger-elicitation-request'(ctx) {
      const call = await ctx.call('trigger-elicitation-request');
      expectOk(call);
      expect(bodyOf(call.result)).toContain('User declined to provide the requested information.');
      expect(call.stderr).toContain(`MCP server "${ctx.server}" asks you to fill in a form.`);
      expect(call.stderr).toContain(
        `Declined: answer the form of MCP server "${ctx.server}" (no terminal to ask; run the command on a terminal to answer it).`,
      );
    },
    async 'trigger-url-elicitation'(ctx) {
      const url = 'https://example.com/finish?step=1';
      const call = await ctx.call('trigger-url-elicitation', { url });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('User declined to open the URL');
      expect(call.stderr).toContain(`MCP server "${ctx.server}" asks you to open a page.`);
      expect(call.stderr).toContain(url);
      expect(call.stderr).toContain(`Declined: open the page MCP server "${ctx.server}" asks for`);
      // The error path (-32042): the page it names first is asked about the same way.
      const first = await ctx.call('trigger-url-elicitation', { url, errorPath: true });
      expect(first.code).toBe(4);
      expect(first.stderr).toContain('https://modelcontextprotocol.io');
      expect(first.stderr).toContain(
        `MCP server "${ctx.server}" needs you to finish on a page first, and none was opened`,
      );
    },
  },
  more(ctx, shape) {
    it('leaves out the tools that need sampling, elicitation or roots, and says so on a call', async () => {
      const { world, server } = ctx();
      const listed = (await world.tools(server)).map((tool) => tool.tool);
      expect(listed.filter((tool) => NEEDS_CLIENT_CAPABILITIES.includes(tool))).toEqual([]);
      const call = await ctx().call('trigger-sampling-request', { prompt: 'hi' });
      expect(call.code).toBe(2);
      expect(call.stderr).toContain(`MCP server "${server}" has no tool "`);
    });

    it('offers its prompts and resources, each wrapped for the model', async () => {
      const { world, server } = ctx();
      const prompts = await world.ok(['prompts', server]);
      for (const name of [
        'simple-prompt',
        'args-prompt',
        'completable-prompt',
        'resource-prompt',
      ]) {
        expect(prompts.stdout).toContain(`${server}/${name}`);
      }
      const simple = await world.ok(['prompt', `${server}/simple-prompt`]);
      expect(simple.stdout).toContain('This is a simple prompt without arguments.');
      expect(simple.stdout).toContain(`<mcp_prompt server="${server}" name="simple-prompt">`);
      const withArgs = await world.ok(['prompt', `${server}/args-prompt`, '{"city":"Paris"}']);
      expect(withArgs.stdout).toContain("What's weather in Paris?");
      const missing = await world.run(['prompt', `${server}/args-prompt`]);
      expect(missing.code).not.toBe(0);

      const resources = await world.ok(['resources', server]);
      expect(resources.stdout).toContain('demo://resource/static/document/');
      expect(resources.stdout).toContain('demo://resource/dynamic/blob/{resourceId}');
      const blob = await world.ok(['read', server, 'demo://resource/dynamic/blob/3']);
      expect(blob.stdout).toMatch(/\[binary: text\/plain, \d+ bytes, not shown\]/);
      expect(blob.stdout).toContain(`<mcp_resource server="${server}"`);
    });

    if (shape.remote === true) return;
    it.runIf(HAS_SANDBOX)(
      'cannot reach the internet from the sandbox without --network',
      async () => {
        // The default data is a github.com URL. The server's own message is a bare
        // "fetch failed"; the note after it says why, and how to allow it.
        const call = await ctx().call('gzip-file-as-resource', {});
        expectToolError(call);
        expect(bodyOf(call.result)).not.toContain('resource link');
        const note = noteOf(call.result) ?? '';
        expect(note).toContain('has no network access in the sandbox ("network": false in ');
        expect(note).toContain(' --replace --network -- ');
      },
    );
  },
});
