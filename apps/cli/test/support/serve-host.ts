// A host in front of `garuda-mcp serve` over stdio: a real SDK Client that starts the built CLI
// through our own ProcessTransport, and answers its questions when the test gives it a way to.
import { Client } from '@modelcontextprotocol/client';
import { ProcessTransport } from '@garuda/mcp-transport';
import { afterEach } from 'vitest';
import { BIN } from './paths.js';
import type { CliWorld } from './world.js';

/** What a test host answers a question with. */
export interface Reply {
  action: 'accept' | 'decline' | 'cancel';
  decision?: string;
  content?: Record<string, unknown>;
}

/** What a test host answers a question with, given the question's message and its request. */
export type Answer = (
  message: string,
  params: { mode?: string; url?: string; requestedSchema?: unknown },
) => Reply | Promise<Reply>;

/** How a host is made: the protocol it speaks, what it declares, what the gateway gets. */
export interface HostOptions {
  /** Speaks the 2026-07-28 revision (a question is an `input_required` result). */
  readonly modern?: boolean;
  /** Declares URL elicitation besides forms (with an `answer`). */
  readonly pages?: boolean;
  /** Added to the gateway's environment. */
  readonly env?: Record<string, string>;
  /** How long close() lets the gateway stop by itself before SIGTERM. */
  readonly closeGraceMs?: number;
}

/** A started host: its client, the transport to the gateway, and the questions it was asked. */
export interface ServeHost {
  readonly client: Client;
  readonly transport: ProcessTransport;
  readonly questions: string[];
}

function answering(client: Client, answer: Answer, questions: string[]): void {
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = request.params.message;
    questions.push(message);
    const { action, decision, content } = await answer(
      message,
      request.params as { mode?: string; url?: string; requestedSchema?: unknown },
    );
    if (action !== 'accept') return { action };
    if (request.params.mode === 'url') return { action };
    return {
      action,
      content: (content ?? { decision: decision ?? '' }) as Record<string, string>,
    };
  });
}

/**
 * Gives the calling file hosts of `garuda-mcp serve args…` in the current test's world; each is
 * closed after its test. With `answer`, a host declares form elicitation (and `url` with
 * `pages`) and answers each question with it (the questions are kept).
 *
 * @param world - The current test's world.
 * @returns Starts a gateway in the project and connects a host to it.
 */
export function hostsPerTest(
  world: () => CliWorld,
): (args?: readonly string[], answer?: Answer, options?: HostOptions) => Promise<ServeHost> {
  const hosts: Client[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})));
  });
  return async (args = [], answer, options = {}) => {
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [BIN, 'serve', ...args],
      env: world().env(options.env),
      cwd: world().root,
      ...(options.closeGraceMs === undefined ? {} : { closeGraceMs: options.closeGraceMs }),
    });
    const questions: string[] = [];
    const client = new Client(
      { name: 'test-host', version: '1.0.0' },
      {
        ...(answer === undefined
          ? {}
          : { capabilities: { elicitation: { form: {}, ...(options.pages ? { url: {} } : {}) } } }),
        ...(options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    if (answer !== undefined) answering(client, answer, questions);
    hosts.push(client);
    await client.connect(transport);
    return { client, transport, questions };
  };
}

/** The text blocks of a result, joined by newlines. */
export function textOf(result: { content?: unknown }): string {
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** Resolves when the host's tool list (listed again at each list_changed) satisfies `check`. */
export function toolsWhen(
  client: Client,
  check: (names: readonly string[]) => boolean,
): Promise<readonly string[]> {
  return new Promise((resolve) => {
    const look = async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      if (check(names)) resolve(names);
    };
    client.setNotificationHandler('notifications/tools/list_changed', look);
    void look();
  });
}
