import { checkPublicEntry } from '@garuda/test-utils';
import { describe } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  // The gateway defines no errors of its own: the manager's pass through.
  checkPublicEntry(api, {}, import.meta.url);
});
