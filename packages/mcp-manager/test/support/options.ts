// The options every host gives, for the tests that make a manager or check its options without
// starting anything (outside src/, so never part of the package).
import type { McpManagerOptions } from '../../src/options.js';

/** Options that make a manager; no test that uses them starts a server. */
export const MINIMAL_OPTIONS = {
  root: '/tmp/project',
  home: '/tmp/home/.garuda',
  userHome: '/tmp/home',
  env: {},
  clientInfo: { name: 'x', version: '1' },
  prompter: {
    consent: () => Promise.resolve('deny' as const),
    notice: () => {},
    approveCall: () => Promise.resolve(false),
  },
} satisfies McpManagerOptions;
