// Where the things a CLI test runs are: this checkout, the built command, the stand-ins.
import { fileURLToPath } from 'node:url';

/** This checkout. */
export const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url)).replace(/\/$/, '');

/** The built command. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
/** A browser stand-in for --browser. */
export const FETCH_BROWSER = fileURLToPath(
  new URL('../fixtures/fetch-browser.mjs', import.meta.url),
);
/** @modelcontextprotocol/server-everything, a real third-party server. */
export const EVERYTHING = fileURLToPath(
  import.meta
    .resolve('@modelcontextprotocol/server-everything/package.json')
    .replace(/package\.json$/, 'dist/index.js'),
);
