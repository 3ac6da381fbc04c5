import { describe, expect, it } from 'vitest';
import { withEntry, withServersMoved } from './host-json.js';

describe('withServersMoved', () => {
  it('rewrites only the value of the server list: a one-line list stays on one line, CRLF stays CRLF', () => {
    const value = { command: 'x' };
    const flat = '{"a":1,"mcpServers":{"gone":{"command":"y"},"kept":2},"z":3}';
    expect(
      withServersMoved(flat, 'mcpServers', new Set([flat.indexOf('"gone"')]), 'garuda', value),
    ).toBe('{"a":1,"mcpServers":{ "kept":2, "garuda": {"command":"x"} },"z":3}');
    const crlf =
      '{\r\n  "mcpServers": {\r\n    "gone": {},\r\n    "garuda": {"old": 1}\r\n  }\r\n}\r\n';
    expect(
      withServersMoved(crlf, 'mcpServers', new Set([crlf.indexOf('"gone"')]), 'garuda', value),
    ).toBe('{\r\n  "mcpServers": {\r\n    "garuda": {"command":"x"}\r\n  }\r\n}\r\n');
  });
});

describe('withEntry', () => {
  it('replaces an entry of that name in place, fills an empty object, adds the key to the root', () => {
    const value = { command: 'x' };
    expect(
      withEntry('{"mcpServers": {"garuda": {"old": 1}, "b": 2}}', 'mcpServers', 'garuda', value),
    ).toBe('{"mcpServers": {"garuda": {"command":"x"}, "b": 2}}');
    expect(withEntry('{\n  "mcpServers": {}\n}\n', 'mcpServers', 'garuda', value)).toBe(
      '{\n  "mcpServers": {\n    "garuda": {"command":"x"}\n  }\n}\n',
    );
    expect(withEntry('{\r\n  "theme": "dark"\r\n}\r\n', 'mcpServers', 'garuda', value)).toBe(
      '{\r\n  "theme": "dark",\r\n  "mcpServers": { "garuda": {"command":"x"} }\r\n}\r\n',
    );
    expect(() => withEntry('{"mcpServers": []}', 'mcpServers', 'garuda', value)).toThrow(
      /not an object/,
    );
  });
});
