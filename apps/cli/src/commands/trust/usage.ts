// Apart from trust.ts so that help shows it without loading the trust store.

/** The usage lines of `trust`. */
export const TRUST_USAGE = 'garuda-mcp trust list\n       garuda-mcp trust forget <server>';
