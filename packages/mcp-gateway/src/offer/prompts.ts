// How the gateway offers the manager's prompts: `<server>__<prompt>` names, descriptions that
// say whose prompt it is, and messages as cleaned text or typed blocks.
import { InvalidArgumentsError, InvalidOptionsError, McpManagerError } from '@garuda/mcp-manager';
import { promptName, type McpPrompt, type PromptResult } from '@garuda/mcp-tools';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Offered } from './offered.js';
import { hostPromptContent } from './typed-blocks.js';

/**
 * A prompt's name for the host: `<server>__<prompt>`, as for tools. The manager's `prompts()`
 * holds one prompt per such name (a clash is decided there, as for tools).
 */
export function hostPromptName(prompt: McpPrompt): string {
  return promptName(prompt.server, prompt.name);
}

/** A prompt as the host lists it: every string already cleaned by the manager. */
export function hostPrompt(prompt: McpPrompt) {
  return {
    name: hostPromptName(prompt),
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    description: `[From MCP server "${prompt.server}".]${
      prompt.description === undefined ? '' : ` ${prompt.description}`
    }`,
    arguments: prompt.arguments.map((argument) => ({
      name: argument.name,
      required: argument.required,
      ...(argument.description === undefined ? {} : { description: argument.description }),
    })),
  };
}

/**
 * A prompt's messages for the host, each in its role (a role MCP does not have becomes the
 * user's): an image, audio or embedded resource typed when the gateway hands it over (see
 * {@link hostPromptContent}), else the manager's cleaned text of it.
 */
export function hostPromptResult(result: PromptResult) {
  return {
    ...(result.description === undefined ? {} : { description: result.description }),
    messages: result.messages.map((message) => ({
      role: message.role === 'assistant' ? ('assistant' as const) : ('user' as const),
      content: hostPromptContent(message),
    })),
  };
}

/** A manager error as the host's JSON-RPC error (its message is written for a model). */
export function asProtocolError(error: unknown): unknown {
  // What the host sent is wrong (a missing prompt argument, a bad URI): its params, not us.
  if (InvalidOptionsError.isInstance(error) || InvalidArgumentsError.isInstance(error)) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  }
  if (McpManagerError.isInstance(error)) {
    return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  }
  return error;
}

/** Answers `prompts/list` and `prompts/get` on `server` from the manager's prompts. */
export function offerPrompts({ server, mcp, started, signal }: Offered): void {
  server.setRequestHandler('prompts/list', async () => {
    await started;
    return { prompts: mcp.prompts().map(hostPrompt) };
  });
  server.setRequestHandler('prompts/get', async (request, requestContext) => {
    await started;
    const prompt = mcp.prompts().find((p) => hostPromptName(p) === request.params.name);
    if (prompt === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No prompt ${JSON.stringify(request.params.name)} behind this gateway (see prompts/list).`,
      );
    }
    try {
      const result = await mcp.getPrompt(prompt.server, prompt.name, request.params.arguments, {
        signal: AbortSignal.any([signal, requestContext.mcpReq.signal]),
      });
      return hostPromptResult(result);
    } catch (error) {
      throw asProtocolError(error);
    }
  });
}
