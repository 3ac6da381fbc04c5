// The README's example must run as written and print what it says it prints.
import { readmeExampleTest } from '@garuda/test-utils/readme-example';
import { packageDir } from './build-for-children.js';

readmeExampleTest({
  packageDir,
  output: /^\/\/ (\d{3} \d{3} .*)$/m,
});
