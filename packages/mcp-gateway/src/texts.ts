// The words the gateway shows that depend on who runs it: how a question's context is laid out,
// and what a user does elsewhere (a terminal, a settings page) when the host cannot ask. The
// defaults are plain; a command line passes its own (its formatters and its commands).
import {
  type CallApprovalRequest,
  type ConsentRequest,
  type SignInRequest,
} from '@garuda/mcp-manager';
import { callPreviewText, type McpTool } from '@garuda/mcp-tools';

/** The wording a host of the gateway may replace. Every string handed in is already cleaned. */
export interface GatewayTexts {
  /** The context of a consent question (a server to start, or its changed tools). */
  consent(request: ConsentRequest): string;
  /** The context of a sign-in question. */
  signIn(request: SignInRequest): string;
  /** The context of a call's approval form. */
  callPreview(request: CallApprovalRequest): string;
  /**
   * What would allow a call that was refused because nobody could be asked (the host cannot show
   * a form and nothing set beforehand allows it).
   */
  notAsked(tool: McpTool, hostTool: string): string;
  /**
   * How the user answers, outside this host, a question kept for the review (`what` says it in
   * a few words), for a host that cannot ask.
   */
  answerElsewhere(question: {
    readonly kind: 'server' | 'tools' | 'sign-in';
    readonly server: string;
  }): string;
  /** How the user signs in to `server` outside this host (it cannot open a page). */
  signInElsewhere(server: string): string;
}

/** The gateway's own wording, plain text. */
export const DEFAULT_TEXTS: GatewayTexts = {
  consent: (request) =>
    request.kind === 'tools'
      ? `The tools of MCP server "${request.server}" changed since they were trusted (${request.source} file).`
      : `The ${request.source} file asks to ${request.url === undefined ? 'start' : 'connect to'} MCP server "${request.server}".`,
  signIn: (request) => `MCP server "${request.server}" needs a sign-in (${request.signInOrigin}).`,
  callPreview: (request) =>
    [
      callPreviewText(request),
      `  risk      ${request.risk.text}`,
      `  asks      ${request.why}`,
    ].join('\n'),
  notAsked: (tool, hostTool) =>
    `This call was not run: nobody was asked (this host cannot show an approval form), and ` +
    `nothing set beforehand allows ${JSON.stringify(hostTool)} (tool ${JSON.stringify(tool.tool)} ` +
    `of MCP server ${JSON.stringify(tool.server)}).`,
  answerElsewhere: () => 'answer it where the gateway is configured.',
  signInElsewhere: (server) => `sign in to "${server}" where the gateway is configured`,
};
