// garuda-mcp serve: what passes through besides tool calls (see serve.test.ts for the set-up):
// typed content, progress and cancellation, prompts and resources; and the sandbox behind the
// gateway.
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { allStrings, hostileLeftovers, waitFor } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { escapeArguments } from './support/escape.js';
import { auditCalls, framedJson } from './support/rounds.js';
import { hostsPerTest, textOf } from './support/serve-host.js';
import { fixtureEntry, osSandboxed, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

describe('garuda-mcp serve: typed content', () => {
  it('hands the host the images, audio and embedded resources of a result besides the framed text', async () => {
    await world.userServers({ notes: fixtureEntry('normal', 'garuda-serve-media') });
    const { client } = await host(['--approvals', 'host']);
    const result = await client.callTool({ name: 'notes__content', arguments: {} });
    const blocks = result.content as { type: string; mimeType?: string; data?: string }[];
    // The embedded text resource is typed too (serve-typed-blocks.test.ts); the link is not.
    expect(blocks.map((block) => block.type)).toEqual(['text', 'image', 'audio', 'resource']);
    expect(textOf(result)).toMatch(/^<mcp_result server="notes" tool="content">/);
    expect(blocks[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from(blocks[1]!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(blocks[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
  });
});

describe('garuda-mcp serve: progress and cancellation', () => {
  it("tells the host the server's progress, and a host's cancel stops the call behind it", async () => {
    await world.userServers({ fx: fixtureEntry('normal', 'garuda-serve-cancel') });
    const { client } = await host(['--approvals', 'host']);
    const progress: number[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'fx__slow', arguments: { ms: 120_000 } },
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.progress);
          if (progress.length === 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[1]!).toBeGreaterThan(progress[0]!);
    // The call behind the gateway ended as cancelled, long before its two minutes.
    await waitFor(
      async () =>
        (await auditCalls(world.home)).some(
          ([tool, outcome]) => tool === 'slow' && outcome === 'cancelled',
        ),
      { timeoutMs: 60_000 },
    );
  });
});

describe('garuda-mcp serve: prompts and resources', () => {
  it('passes prompts through, cleaned, under <server>__<prompt>', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-prompts') });
    const { client } = await host(['--approvals', 'host']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['lib__hostile', 'lib__review']);
    expect(allStrings(prompts).flatMap(hostileLeftovers)).toEqual([]);
    const review = await client.getPrompt({
      name: 'lib__review',
      arguments: { code: 'x = 1', lang: 'python' },
    });
    expect(review.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(JSON.stringify(review.messages)).toContain('Review this python:');
    const hostile = await client.getPrompt({ name: 'lib__hostile' });
    expect(allStrings(hostile).flatMap(hostileLeftovers)).toEqual([]);
    await expect(client.getPrompt({ name: 'lib__nope' })).rejects.toThrow(/No prompt "lib__nope"/);
  });

  it('passes resources through under garuda:// URIs, read back framed and cleaned', async () => {
    await world.userServers({ lib: fixtureEntry('library', 'garuda-serve-resources') });
    const { client } = await host(['--approvals', 'host']);
    const { resources } = await client.listResources();
    const readme = resources.find((r) => r.uri === 'garuda://lib/note%3A%2F%2Flibrary%2Freadme');
    expect(readme?.name).toMatch(/^lib: /);
    expect(allStrings(resources).flatMap(hostileLeftovers)).toEqual([]);
    // The server's javascript: URI is never shown raw.
    expect(JSON.stringify(resources)).not.toContain('javascript:alert');
    const read = await client.readResource({ uri: readme!.uri });
    const [first] = read.contents as { uri: string; text?: string }[];
    expect(first?.uri).toBe(readme!.uri);
    expect(first?.text).toMatch(/^<mcp_resource server="lib" uri="note:\/\/library\/readme">/);
    const hostile = resources.find((r) =>
      r.uri.endsWith(encodeURIComponent('note://library/hostile')),
    );
    const framed = (await client.readResource({ uri: hostile!.uri })).contents[0] as {
      text: string;
    };
    expect(framed.text.match(/<\/mcp_resource>/g)).toHaveLength(1);
    const logo = resources.find((r) => r.uri.endsWith(encodeURIComponent('note://library/logo')));
    const image = (await client.readResource({ uri: logo!.uri })).contents;
    expect(image.some((content) => 'blob' in content && content.mimeType === 'image/png')).toBe(
      true,
    );
    await expect(
      client.readResource({ uri: 'garuda://lib/note%3A%2F%2Fsomewhere%2Felse' }),
    ).rejects.toThrow(/No such resource behind this gateway/);

    // A template keeps its expression; what the host expands it to reads the server's resource.
    const { resourceTemplates } = await client.listResourceTemplates();
    const item = resourceTemplates.find((t) => t.name === 'lib: item');
    expect(item?.uriTemplate).toBe('garuda://lib/note%3A%2F%2Flibrary%2Fitems%2F{id}');
    expect(item?.description).toContain('its template: note://library/items/{id}');
    const expanded = item!.uriTemplate.replace('{id}', encodeURIComponent('42 b'));
    const read42 = (await client.readResource({ uri: expanded })).contents[0] as { text: string };
    expect(read42.text).toMatch(
      /^<mcp_resource server="lib" uri="note:\/\/library\/items\/42%20b">/,
    );
    expect(read42.text).toContain('item 42%20b');
    // Text the template does not have reads nothing.
    await expect(
      client.readResource({ uri: 'garuda://lib/note%3A%2F%2Flibrary%2Fother%2F42' }),
    ).rejects.toThrow(/No such resource behind this gateway/);
  });

  it('ReDoS: a server template of adjacent expressions is not offered, and reading it never stops the gateway answering', async () => {
    await world.userServers({
      lib: fixtureEntry('library', 'garuda-serve-redos'),
      fx: fixtureEntry('normal', 'garuda-serve-redos'),
    });
    const { client, transport } = await host(['--approvals', 'host']);
    // A slow call of another server is in flight the whole time.
    const slow = client.callTool({ name: 'fx__slow', arguments: { ms: 5_000 } });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
    );
    // `note://{a}{b}…{z}.txt`: a backtracking match of a URI that does not end in `.txt` tries
    // every way to split it among 26 values.
    const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const uriTemplate = `note://${letters.map((letter) => `{${letter}}`).join('')}.txt`;
    const added = await client.callTool({
      name: 'lib__add_template',
      arguments: { name: 'packed', uriTemplate },
    });
    expect(added.isError).toBeFalsy();
    await changed;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.name)).toEqual(['lib: item']);
    await waitFor(
      () => transport.stderrTail().join('\n').includes('its resource template "note://{a}{b}{c}'),
      { timeoutMs: 60_000 },
    );
    expect(transport.stderrTail().join('\n')).toContain('is not offered to the host');
    // A host may send the URI anyway: refused at once, and the gateway goes on answering.
    const hostile = `garuda://lib/note%3A%2F%2F${'a'.repeat(40)}.tx`;
    const read = client.readResource({ uri: hostile }).then(
      () => 'read',
      (error: unknown) => String(error),
    );
    await expect(client.ping()).resolves.toBeDefined();
    const sum = await client.callTool({ name: 'fx__add', arguments: { a: 2, b: 3 } });
    expect(textOf(sum)).toContain('5');
    expect(await read).toMatch(/No such resource behind this gateway/);
    expect(textOf(await slow)).toContain('done');
  });
});

// Without an OS sandbox there is nothing to prove: skipped, and CI (which requires one) fails.

const SANDBOXED = await osSandboxed();

describe.skipIf(!SANDBOXED)('garuda-mcp serve: the sandbox behind the gateway', () => {
  it('a server called through the gateway still cannot write outside, read garuda home or connect', async () => {
    const listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      await world.userServers({ esc: fixtureEntry('escape', 'garuda-serve-escape') });
      // Off /tmp (bubblewrap's is private), outside the project: next to this test file.
      const outside = path.join(import.meta.dirname, `escape-serve-${process.pid}.txt`);
      const { client } = await host(['--approvals', 'host']);
      const result = await client.callTool({
        name: 'esc__escape',
        arguments: await escapeArguments(world, outside, port),
      });
      const text = textOf(result);
      const report = framedJson<Record<string, { ok: boolean }>>(text);
      expect(report.writeRoot?.ok).toBe(true);
      expect(report.writeOutside?.ok).toBe(false);
      expect(existsSync(outside)).toBe(false);
      expect(report.writeGaruda?.ok).toBe(false);
      expect(report.readSecret?.ok).toBe(false);
      expect(report.connect?.ok).toBe(false);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
