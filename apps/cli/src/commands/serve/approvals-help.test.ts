import { GATEWAY_APPROVALS } from '@garuda/mcp-gateway';
import { describe, expect, it } from 'vitest';
import { command } from './index.js';

describe('serve --approvals', () => {
  it('its help lists exactly the modes of the gateway table, each described, elicit the default', () => {
    const help = command.options?.find(([flag]) => flag === '--approvals <mode>')?.[1] ?? '';
    const rows = help.split('\n').map((line) => /^(\S+) +(.*?)( \(default\))?$/.exec(line));
    expect(rows.map((row) => row?.[1])).toEqual(Object.keys(GATEWAY_APPROVALS));
    expect(rows.map((row) => row?.[2])).toEqual(Object.values(GATEWAY_APPROVALS));
    expect(rows.filter((row) => row?.[3] !== undefined).map((row) => row?.[1])).toEqual(['elicit']);
  });

  it('its usage names the same modes', () => {
    expect(command.usage).toContain(`[--approvals ${Object.keys(GATEWAY_APPROVALS).join('|')}]`);
  });

  it('every mode has a one-line description', () => {
    for (const what of Object.values(GATEWAY_APPROVALS)) {
      expect(what.trim()).not.toBe('');
      expect(what).not.toContain('\n');
    }
  });
});
