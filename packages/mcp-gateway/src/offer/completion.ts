// `completion/complete`: the host completes an argument of a prompt or a variable of a resource
// template under the gateway's names; the gateway maps the name back to the server whose prompt
// or template it is, and answers the manager's cleaned, capped values (a server without
// completions answers none).
import type { CompletionRequest } from '@garuda/mcp-manager';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Offered } from './offered.js';
import { asProtocolError, hostPromptName } from './prompts.js';
import { hostTemplates } from './resources.js';

/** The manager's prompt or template behind a host's completion reference, if it offers one. */
function ownerOf(
  { mcp }: Offered,
  ref: { type: string; name?: unknown; uri?: unknown },
): Pick<CompletionRequest, 'server' | 'ref'> | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = mcp.prompts().find((p) => hostPromptName(p) === ref.name);
    return prompt && { server: prompt.server, ref: { type: 'prompt', name: prompt.name } };
  }
  if (ref.type === 'ref/resource') {
    // The host names a template as resources/templates/list showed it (a refused one is not
    // offered, so it completes nothing either).
    const template = mcp
      .resourceTemplates()
      .find((t) => hostTemplates([t], () => {})[0]?.uriTemplate === ref.uri);
    return (
      template && {
        server: template.server,
        ref: { type: 'template', uriTemplate: template.uriTemplate },
      }
    );
  }
  return undefined;
}

/** Answers `completion/complete` on `server` through the manager. */
export function offerCompletion(offered: Offered): void {
  const { server, mcp, started, signal } = offered;
  server.setRequestHandler('completion/complete', async (request, requestContext) => {
    await started;
    const { ref, argument, context } = request.params;
    const owner = ownerOf(offered, ref);
    if (owner === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        ref.type === 'ref/prompt'
          ? `No prompt ${JSON.stringify(ref.name)} behind this gateway (see prompts/list).`
          : 'No such resource template behind this gateway (see resources/templates/list).',
      );
    }
    try {
      const completion = await mcp.complete(
        {
          ...owner,
          argument: { name: argument.name, value: argument.value },
          ...(context?.arguments === undefined
            ? {}
            : { context: { arguments: context.arguments } }),
        },
        { signal: AbortSignal.any([signal, requestContext.mcpReq.signal]) },
      );
      return {
        completion: {
          values: completion.values,
          ...(completion.total === undefined ? {} : { total: completion.total }),
          hasMore: completion.hasMore,
        },
      };
    } catch (error) {
      throw asProtocolError(error);
    }
  });
}
