import { checkPublicEntry } from '@garuda/test-utils';
import { describe } from 'vitest';
import * as api from './index.js';

describe('public entry', () => {
  // The log throws no error class of its own: a lock it cannot take is the lock's own error.
  checkPublicEntry(api, {}, import.meta.url);
});
