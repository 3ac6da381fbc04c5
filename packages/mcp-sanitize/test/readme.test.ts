// The README's Quick start must run as written and print what the README shows.
import { fileURLToPath } from 'node:url';
import { quickStartTest } from '@garuda/test-utils';

quickStartTest({ packageDir: fileURLToPath(new URL('..', import.meta.url)) });
