import { defineTests } from '../../vitest.shared.ts';

export default defineTests();
