// Public entry of garuda-mcp, for running the CLI from code (tests, wrappers): `main(argv, io)`.
export { main, cliVersion } from './main.js';
export type { CliIo, InStream, OutStream } from './io.js';
export { ExitCode } from './exit-codes.js';
