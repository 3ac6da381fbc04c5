import type { Readable, Writable } from 'node:stream';
import { commandLine } from '@garuda/mcp-config';
import {
  createGateway,
  serveHttp,
  serveStdio,
  type GatewayApprovals,
  type GatewayTexts,
  type HttpGateway,
} from '@garuda/mcp-gateway';
import pc from 'picocolors';
import { readConfig } from '../../cli-config.js';
import type { CommandContext } from '../../context.js';
import { formatCallPreview, formatConsent, formatSignIn } from '../../format-questions.js';
import { loginCommandLine } from '../../format.js';
import { cliPrompter, createManager } from '../../open-manager.js';
import { CliError, ExitCode } from '../../exit-codes.js';
import { gatewayToken } from './serve-token.js';

/**
 * How `serve` answers the questions a terminal would ask: `elicit` (the default: a call that must
 * ask is asked through MCP elicitation when the host declares it, else as `rules`; consent, changed
 * tools and sign-ins wait for the `garuda_review` tool, which asks them the same way), `rules`
 * (only what the user set beforehand with the CLI: trust, "always allow", `--allow`, the approval
 * mode; the rest is refused with the command that allows it) or `host` (every call runs: the host
 * asks its user per call; consent as `rules`).
 */
export type ServeApprovals = GatewayApprovals;

/** More of how `serve` runs. */
export interface ServeOptions {
  /**
   * How long a question through the host waits for its answer, in ms (`--answer-timeout`;
   * default 45 s): then it expires and what it was about is not run.
   */
  readonly answerTimeoutMs?: number;
}

const plain = pc.createColors(false);

/**
 * `garuda-mcp serve`: the gateway of `@garuda/mcp-gateway` in front of every configured server,
 * over stdio (the host starts it) or Streamable HTTP on 127.0.0.1 (`--http`). stdout carries only
 * MCP messages; everything else goes to stderr, which hosts keep as the server's log.
 *
 * @returns 0 once the host is gone (or a signal came) and every server stopped.
 */
export async function serveCommand(
  ctx: CommandContext,
  approvals: ServeApprovals,
  http?: { readonly port: number },
  options: ServeOptions = {},
): Promise<number> {
  await readConfig(ctx);
  const { globals, output } = ctx;
  const say = (message: string) => output.err(`garuda-mcp serve: ${message}`);
  // A token file that is not safe to use stops the command before any server starts.
  const token = http === undefined ? undefined : await gatewayToken(globals.home);
  // Nobody can be asked on a terminal: stdin and stdout are the host's. `--yes` is what `host`
  // means for calls; consent needs trust given beforehand (or --trust-project on the command).
  const rules = cliPrompter(ctx, { interactive: false, yes: approvals === 'host' || globals.yes });
  const gateway = createGateway({
    manager: ({ prompter, onChange, openBrowser, onServerLog }) =>
      createManager(ctx, { ...rules, ...prompter }, globals.startMode, {
        onChange,
        openBrowser,
        onServerLog,
      }),
    rules,
    approvals,
    allowEveryCall: globals.yes,
    trustProject: globals.trustProject,
    ...(options.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: options.answerTimeoutMs }),
    serverInfo: { name: 'garuda-mcp', version: ctx.version },
    texts: cliTexts(ctx),
    log: say,
    signal: ctx.signal,
  });

  if (http !== undefined && token !== undefined) {
    let endpoint: HttpGateway;
    try {
      endpoint = await serveHttp(gateway, {
        token,
        port: http.port,
        onError: (error) => say(messageOf(error)),
      });
    } catch (error) {
      await gateway.close();
      throw new CliError(
        `garuda-mcp serve --http could not listen on 127.0.0.1:${http.port}: ${messageOf(error)}.`,
        ExitCode.SERVER,
      );
    }
    say(`listening on ${endpoint.url} (127.0.0.1 only).`);
    say(
      token.isNew
        ? `the bearer token, shown this once, is ${token.token} (kept in ${token.file}, mode 0600).`
        : `the bearer token is in ${token.file}.`,
    );
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await endpoint.close();
    await gateway.close();
    return 0;
  }

  await serveStdio(gateway, {
    stdin: ctx.io.stdin as unknown as Readable,
    stdout: ctx.io.stdout as unknown as Writable,
    signal: ctx.signal,
    onError: (error) => say(messageOf(error)),
  });
  await gateway.close();
  return 0;
}

/** The CLI's wording in the gateway: its formatters, and the commands that answer elsewhere. */
function cliTexts(ctx: CommandContext): GatewayTexts {
  const { home, root } = ctx.globals;
  return {
    consent: (request) => formatConsent(request, plain),
    signIn: (request) => formatSignIn(request, plain),
    callPreview: (request) => formatCallPreview(request, plain),
    answerElsewhere: (question) =>
      question.kind === 'sign-in'
        ? `run \`${loginCommandLine(question.server)}\` in a terminal in ${root}.`
        : `run \`garuda-mcp status\` in a terminal in ${root} and answer ` +
          `"Yes, and remember it" (or add \`--trust-project\` to the garuda-mcp serve command).`,
    signInElsewhere: (server) => `run \`${loginCommandLine(server)}\` in a terminal`,
    // A refused call nobody was asked about: the commands that would allow it, with the
    // gateway's own `--home` and `--root`.
    notAsked: (tool, hostTool) => {
      const named = `${JSON.stringify(hostTool)} (tool ${JSON.stringify(tool.tool)} of MCP server ${JSON.stringify(tool.server)})`;
      const call = commandLine({
        command: 'garuda-mcp',
        args: ['call', `${tool.server}/${tool.tool}`, '--home', home, '--root', root],
      });
      return (
        'This call was not run: nobody was asked (garuda-mcp serve does not ask per call when the ' +
        `host cannot show its approval form), and nothing set beforehand allows ${named}. To allow ` +
        `it, either run \`${call}\` in a terminal and answer "always allow", or add ` +
        `\`--allow mcp.${tool.server}.${tool.tool}\` (or \`--approvals host\`, to let this host ask ` +
        'for each call, or `--yes`, to run every call) to the garuda-mcp serve command in the ' +
        "host's configuration."
      );
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
