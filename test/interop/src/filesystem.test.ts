// @modelcontextprotocol/server-filesystem, every tool, in the sandbox: the reads return what is
// on disk, the writes change the disk, and a folder the server was given but the sandbox was not
// told it may write stays read-only.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sandboxOutcomes } from '@garuda/test-utils';
import { expect, it } from 'vitest';
import { HAS_SANDBOX, SANDBOX, SERVER_JS, bodyOf, noteOf } from './interop-world.js';
import { describeServer, expectOk, expectToolError, type ToolContext } from './server-suite.js';

/** What this machine's sandbox gives: bubblewrap's outcomes on Linux, Seatbelt's on macOS. */
const IS = sandboxOutcomes(SANDBOX.kind);

/** The folders of one shape. */
interface Folders {
  /** Where the server works: it may write here (a --write folder, or inside the project). */
  readonly dir: string;
  /** A folder the server was given that the sandbox shows read-only (--sandbox-read only). */
  readonly readonly: string;
}

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Files every shape starts with. */
async function seed(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'seed.txt'), 'planted by the test\n');
  await writeFile(path.join(dir, 'pixel.png'), PIXEL);
}

type Ctx = ToolContext<Folders>;
const at = (ctx: Ctx, ...parts: string[]) => path.join(ctx.fixture.dir, ...parts);

describeServer<Folders>('@modelcontextprotocol/server-filesystem', {
  shapes: [
    {
      title: 'added with garuda-mcp add, a folder outside the project given with --write',
      server: 'filesystem',
      async setup(world) {
        const dir = await world.folder('shared');
        const readonly = await world.folder('readonly');
        await seed(dir);
        world.always('--sandbox-read', readonly);
        await world.ok(
          ['add', 'filesystem', '--write', dir, '--'].concat(
            'node',
            SERVER_JS.filesystem,
            dir,
            readonly,
          ),
        );
        return { dir, readonly };
      },
    },
    {
      title:
        "a Claude Code .mcp.json in the project, imported (the project's servers are writable)",
      server: 'server-filesystem',
      async setup(world) {
        const dir = path.join(world.root, 'work');
        await mkdir(dir);
        const readonly = await world.folder('readonly');
        await seed(dir);
        world.always('--sandbox-read', readonly, '--trust-project');
        await world.claudeProjectFile({
          'server-filesystem': {
            type: 'stdio',
            command: 'node',
            args: [SERVER_JS.filesystem, dir, readonly],
          },
        });
        const imported = await world.ok(['import', '--from', 'claude', '--all']);
        expect(imported.stdout).toContain(
          `Imported 1 server into ${path.join(world.root, '.garuda', 'mcp.json')}: server-filesystem.`,
        );
        return { dir, readonly };
      },
    },
  ],
  tools: {
    async list_allowed_directories(ctx) {
      const call = await ctx.call('list_allowed_directories');
      expectOk(call);
      expect(bodyOf(call.result)).toBe(
        `Allowed directories:\n${ctx.fixture.dir}\n${ctx.fixture.readonly}`,
      );
    },
    async create_directory(ctx) {
      const call = await ctx.call('create_directory', { path: at(ctx, 'notes') });
      expectOk(call);
      expect(existsSync(at(ctx, 'notes'))).toBe(true);
    },
    async write_file(ctx) {
      const call = await ctx.call('write_file', {
        path: at(ctx, 'notes', 'a.txt'),
        content: 'first line\nsecond line\n',
      });
      expectOk(call);
      expect(await readFile(at(ctx, 'notes', 'a.txt'), 'utf8')).toBe('first line\nsecond line\n');
    },
    async read_text_file(ctx) {
      const call = await ctx.call('read_text_file', { path: at(ctx, 'notes', 'a.txt'), head: 1 });
      expectOk(call);
      expect(bodyOf(call.result)).toBe('first line');
    },
    async read_file(ctx) {
      // The deprecated name of read_text_file, still listed.
      const call = await ctx.call('read_file', { path: at(ctx, 'seed.txt') });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('planted by the test');
    },
    async edit_file(ctx) {
      const call = await ctx.call('edit_file', {
        path: at(ctx, 'notes', 'a.txt'),
        edits: [{ oldText: 'second line', newText: 'edited line' }],
      });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('+edited line');
      expect(await readFile(at(ctx, 'notes', 'a.txt'), 'utf8')).toBe('first line\nedited line\n');
    },
    async read_multiple_files(ctx) {
      const call = await ctx.call('read_multiple_files', {
        paths: [at(ctx, 'notes', 'a.txt'), at(ctx, 'seed.txt')],
      });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('first line\nedited line');
      expect(bodyOf(call.result)).toContain('planted by the test');
    },
    async read_media_file(ctx) {
      const call = await ctx.call('read_media_file', { path: at(ctx, 'pixel.png') });
      expectOk(call);
      // The image block reaches the model as a marker. (The server's structuredContent repeats
      // the image, base64 and all, and the CLI prints it after the marker: see the README.)
      expect(bodyOf(call.result).split('\n')[0]).toBe(
        `[image: image/png, ${PIXEL.length} bytes, not shown]`,
      );
    },
    async list_directory(ctx) {
      const call = await ctx.call('list_directory', { path: ctx.fixture.dir });
      expectOk(call);
      expect(bodyOf(call.result).split('\n').sort()).toEqual(
        ['[DIR] notes', '[FILE] pixel.png', '[FILE] seed.txt'].sort(),
      );
    },
    async list_directory_with_sizes(ctx) {
      const call = await ctx.call('list_directory_with_sizes', {
        path: at(ctx, 'notes'),
        sortBy: 'size',
      });
      expectOk(call);
      expect(bodyOf(call.result)).toMatch(/\[FILE\] a\.txt\s+23 B/);
    },
    async directory_tree(ctx) {
      const call = await ctx.call('directory_tree', { path: ctx.fixture.dir });
      expectOk(call);
      const tree = JSON.parse(bodyOf(call.result)) as { name: string; children?: unknown[] }[];
      expect(tree).toContainEqual({
        name: 'notes',
        type: 'directory',
        children: [{ name: 'a.txt', type: 'file' }],
      });
    },
    async search_files(ctx) {
      const call = await ctx.call('search_files', { path: ctx.fixture.dir, pattern: '**/*.txt' });
      expectOk(call);
      expect(bodyOf(call.result).split('\n').sort()).toEqual(
        [at(ctx, 'notes', 'a.txt'), at(ctx, 'seed.txt')].sort(),
      );
    },
    async get_file_info(ctx) {
      const call = await ctx.call('get_file_info', { path: at(ctx, 'notes', 'a.txt') });
      expectOk(call);
      expect(bodyOf(call.result)).toContain('size: 23');
      expect(bodyOf(call.result)).toContain('isFile: true');
    },
    async move_file(ctx) {
      const call = await ctx.call('move_file', {
        source: at(ctx, 'notes', 'a.txt'),
        destination: at(ctx, 'moved.txt'),
      });
      expectOk(call);
      expect(existsSync(at(ctx, 'notes', 'a.txt'))).toBe(false);
      expect(await readFile(at(ctx, 'moved.txt'), 'utf8')).toBe('first line\nedited line\n');
    },
  },
  more(ctx) {
    it.runIf(HAS_SANDBOX)(
      'cannot write a folder it was given when the sandbox was not told it may (no --write)',
      async () => {
        const { server, fixture } = ctx();
        const file = path.join(fixture.readonly, 'nope.txt');
        const call = await ctx().call('write_file', { path: file, content: 'x' });
        expectToolError(call);
        expect(bodyOf(call.result)).toEqual(IS.readOnly.message('open', file));
        expect(existsSync(file)).toBe(false);
        // garuda-mcp says why, and what would allow it.
        const note = noteOf(call.result);
        expect(note).toContain(
          `the sandbox lets MCP server "${server}" write only the project folder, its write ` +
            `paths and temp folders; "${file}" is outside them.`,
        );
        // The world is under the OS temp folder. On macOS that is under /private (TMPDIR's real
        // path), a system folder the note never suggests: there it asks for a narrower folder.
        if (fixture.readonly.startsWith('/private/')) {
          expect(note).toContain(
            'No folder is suggested for it (the home folder or one that holds it, a system folder ' +
              'or a dot-folder): if it should be allowed, the user can name a narrower folder in its "writePaths"',
          );
        } else {
          expect(note).toContain(`add "${fixture.readonly}" to its "writePaths"`);
          expect(note).toMatch(
            new RegExp(
              `garuda-mcp add ${server} (--project )?--replace .*--write ${fixture.readonly} -- `,
            ),
          );
        }
      },
    );
  },
});
