// Writes mcp.schema.json from the built package (pnpm --filter @garuda/mcp-config schema). A test
// fails when the committed file differs from what this writes.
import { writeFile } from 'node:fs/promises';
import { mcpConfigJsonSchema } from '../dist/index.js';

await writeFile(
  new URL('../mcp.schema.json', import.meta.url),
  `${JSON.stringify(mcpConfigJsonSchema(), null, 2)}\n`,
);
