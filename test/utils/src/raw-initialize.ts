/**
 * An `initialize` request of the 2025-06-18 revision as raw JSON-RPC text, for tests that speak
 * to an MCP endpoint over plain HTTP or sockets.
 */
export const RAW_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});
