/**
 * The placeholder for a local server's own home folder: `${GARUDA_SERVER_HOME}` in a server's
 * `env` values (and `args`) is kept as written by `@garuda/mcp-config`, and the manager replaces
 * it with the server's home when it starts the server.
 */
export const SERVER_HOME_VARIABLE = 'GARUDA_SERVER_HOME';
