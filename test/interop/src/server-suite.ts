// One scaffold for every server: for each config shape, a fresh world with the server in it, a
// check that the suite covers exactly the tools the server lists (a tool added by a newer
// version fails here, loudly, instead of going untested), then one test per tool, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HAS_SANDBOX,
  InteropWorld,
  SANDBOX,
  modelName,
  type CallResult,
  type ListedTool,
} from './interop-world.js';

/** What a tool's test gets: the world, the shape's own folders and names, and `call`. */
export interface ToolContext<F> {
  readonly world: InteropWorld;
  /** The server's name in Garuda's file. */
  readonly server: string;
  /** What the shape's `setup` returned (folders, files). */
  readonly fixture: F;
  /** Calls one of the server's tools (by its bare name) with `--yes --json`. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallResult>;
}

/** One way of putting the server into the configuration. */
export interface Shape<F> {
  /** How it was configured, as the test title says it. */
  readonly title: string;
  /** The server's name in Garuda's file (a name with `-` checks the `mcp__a_b__tool` form). */
  readonly server: string;
  /** A remote server (no sandbox of ours; status says `{ kind: 'remote' }`). */
  readonly remote?: boolean;
  /** Configures the server in the fresh world (through the CLI, or by writing a file). */
  setup(world: InteropWorld): Promise<F>;
}

/** The sandbox a status row names for a local server on this machine. */
function expectedSandbox(): { kind: string } {
  return { kind: SANDBOX.kind };
}

/**
 * Declares the tests of one server: for every shape, the coverage check and one test per tool.
 *
 * @param title - The server's package name.
 * @param options.shapes - The config shapes (each gets a world of its own).
 * @param options.tools - One test per tool the server lists, run in this order.
 * @param options.more - Further tests of a shape (run after the tools').
 */
export function describeServer<F>(
  title: string,
  options: {
    readonly shapes: readonly Shape<F>[];
    readonly tools: Readonly<Record<string, (ctx: ToolContext<F>) => Promise<void>>>;
    readonly more?: (ctx: () => ToolContext<F>, shape: Shape<F>) => void;
  },
): void {
  describe(title, () => {
    for (const shape of options.shapes) {
      describe(shape.title, () => {
        let world: InteropWorld | undefined;
        let context: ToolContext<F> | undefined;
        const ctx = (): ToolContext<F> => {
          if (context === undefined) throw new Error(`${shape.title}: the setup did not finish`);
          return context;
        };

        beforeAll(async () => {
          const w = (world = await InteropWorld.create());
          const fixture = await shape.setup(w);
          // A name with "-" is called by the model's name (mcp__a_b__tool), which checks the
          // mapping; the others as <server>/<tool>.
          const qualified = (tool: string) =>
            shape.server.includes('-') ? modelName(shape.server, tool) : `${shape.server}/${tool}`;
          context = {
            world: w,
            server: shape.server,
            fixture,
            call: (tool, args) => w.call(qualified(tool), args),
          };
        });
        afterAll(async () => {
          await world?.cleanup();
        });

        it('lists exactly the tools this suite calls, and starts sandboxed', async () => {
          const { world: w, server } = ctx();
          const listed: ListedTool[] = await w.tools(server);
          expect(listed.map((tool) => tool.tool).sort()).toEqual(Object.keys(options.tools).sort());
          for (const tool of listed) {
            expect(tool).toMatchObject({ server, name: modelName(server, tool.tool) });
          }
          const row = (await w.status()).find((r) => r.name === server);
          expect(row).toMatchObject({ state: 'connected', tools: listed.length });
          if (shape.remote === true) {
            expect(row?.sandbox).toEqual({ kind: 'remote' });
          } else {
            expect(row?.network).toEqual({ kind: 'local', allowed: false });
            if (HAS_SANDBOX) expect(row?.sandbox).toEqual(expectedSandbox());
          }
        });

        for (const [tool, run] of Object.entries(options.tools)) {
          it(tool, () => run(ctx()));
        }

        options.more?.(ctx, shape);
      });
    }
  });
}

/** A result the tool reported as success, with the CLI's exit 0. */
export function expectOk(call: CallResult): void {
  expect(call).toMatchObject({ code: 0, result: { isError: false } });
}

/** A result the tool reported as an error, with the CLI's exit 1. */
export function expectToolError(call: CallResult): void {
  expect(call).toMatchObject({ code: 1, result: { isError: true } });
}
