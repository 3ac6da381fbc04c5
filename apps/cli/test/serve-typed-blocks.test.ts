// garuda-mcp serve: embedded resources of a result, and the images, audio and embedded resources
// of a prompt, reach the host as typed blocks (see serve.test.ts for the set-up): text cleaned,
// binary data of the types the gateway hands over only, every URI through checkUrl; what is not
// handed over is a note that says why. The model's framed text is the manager's, as before.
import { allStrings, hostileLeftovers, LIBRARY_PNG } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { hostsPerTest } from './support/serve-host.js';
import { fixtureEntry, worldPerTest, type CliWorld } from './support/world.js';

let world: CliWorld;
worldPerTest((created) => (world = created));
const host = hostsPerTest(() => world);

interface Block {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

describe('garuda-mcp serve: typed blocks', () => {
  for (const modern of [false, true]) {
    const era = modern ? '2026-07-28' : '2025';
    it(`hands a ${era} host a result's embedded resources typed, after the framed text`, async () => {
      await world.userServers({ fx: fixtureEntry('embedded', 'garuda-serve-embedded') });
      const { client } = await host(['--approvals', 'host'], undefined, { modern });
      const result = await client.callTool({ name: 'fx__embedded', arguments: {} });
      const blocks = result.content as Block[];
      expect(blocks.map((block) => block.type)).toEqual([
        'text',
        'resource',
        'resource',
        'text',
        'text',
      ]);
      // The model reads the manager's framed text first; the embedded text is inside it too.
      expect(blocks[0]!.text).toMatch(/^<mcp_result server="fx" tool="embedded">/);
      expect(blocks[0]!.text).toContain('notes');
      expect(blocks[1]!.resource).toMatchObject({
        uri: 'file:///fixture/notes.txt',
        mimeType: 'text/plain',
      });
      expect(blocks[1]!.resource!.text).toMatch(/^notes /);
      expect(blocks[1]!.resource!.text).not.toContain('</mcp_result>');
      expect(blocks[2]!.resource).toEqual({
        uri: 'file:///fixture/logo.png',
        mimeType: 'image/png',
        blob: LIBRARY_PNG,
      });
      // An SVG (it could carry script) and a script URI are not handed over, and the host is
      // told why.
      expect(blocks[3]!.text).toBe(
        '<garuda_note>An embedded resource of this result is not handed over: its type (image/svg+xml) is not one handed to hosts.</garuda_note>',
      );
      expect(blocks[4]!.text).toBe(
        '<garuda_note>An embedded resource of this result is not handed over: its URI is not shown (SCHEME).</garuda_note>',
      );
      expect(JSON.stringify(blocks)).not.toContain('javascript:');
      // The typed blocks are clean (the frame and the notes are the gateway's own tags).
      expect(allStrings(blocks.slice(1, 3)).flatMap(hostileLeftovers)).toEqual([]);
    });

    it(`hands a ${era} host a prompt's images, audio and embedded resources typed`, async () => {
      await world.userServers({ fx: fixtureEntry('embedded', 'garuda-serve-prompt-media') });
      const { client } = await host(['--approvals', 'host'], undefined, { modern });
      const { messages } = await client.getPrompt({ name: 'fx__media' });
      const contents = messages.map((message) => message.content as Block);
      expect(messages.map((message) => message.role)).toEqual([
        'user',
        'user',
        'assistant',
        'user',
        'user',
        'user',
        'user',
      ]);
      expect(contents.map((content) => content.type)).toEqual([
        'text',
        'image',
        'audio',
        'resource',
        'resource',
        'text',
        'text',
      ]);
      expect(contents[1]).toEqual({ type: 'image', data: LIBRARY_PNG, mimeType: 'image/png' });
      expect(contents[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
      expect(contents[3]!.resource).toMatchObject({ uri: 'file:///fixture/notes.txt' });
      expect(contents[3]!.resource!.text).toMatch(/^notes /);
      expect(contents[4]!.resource).toMatchObject({ blob: LIBRARY_PNG, mimeType: 'image/png' });
      // What is not handed over stays the manager's note, as before.
      expect(contents[5]!.text).toContain('file:///fixture/logo.svg');
      expect(contents[6]!.text).toContain('a URI that is not shown (SCHEME)');
      expect(JSON.stringify(messages)).not.toContain('javascript:');
      expect(allStrings(messages).flatMap(hostileLeftovers)).toEqual([]);
    });
  }
});
