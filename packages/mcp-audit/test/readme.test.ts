// The README's Quick start must run as written and print what the README shows, and every other
// whole program in it must run as written.
import { fileURLToPath } from 'node:url';
import { quickStartTest, readmeProgramsTest } from '@garuda/test-utils';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
quickStartTest({ packageDir });
readmeProgramsTest({ packageDir });
