// A small catalog of adapted tools in the shapes real servers list, for the tool-search tests.
import { adaptTools } from '../src/adapt-tools.js';
import type { McpTool } from '../src/types.js';

/** A tool as a test writes it: a name, a description, the names of its string arguments. */
export interface RawTool {
  readonly name: string;
  readonly description?: string;
  readonly properties?: readonly string[];
  readonly required?: readonly string[];
}

/**
 * Adapts tools as a server would list them.
 *
 * @param server - The server name.
 * @param raw - The tools.
 * @returns The adapted tools.
 */
export function adapt(server: string, raw: readonly RawTool[]): McpTool[] {
  return adaptTools(
    server,
    raw.map(({ name, description, properties = [], required }) => ({
      name,
      description,
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(properties.map((p) => [p, { type: 'string' }])),
        ...(required === undefined ? {} : { required }),
      },
    })),
  ).tools;
}

/** A small catalog of the shapes real servers list. */
export const CATALOG: McpTool[] = [
  ...adapt('github', [
    {
      name: 'list_issues',
      description: 'List issues in a GitHub repository.',
      properties: ['owner', 'repo', 'state'],
      required: ['owner', 'repo'],
    },
    {
      name: 'create_issue',
      description: 'Create a new issue in a repository.',
      properties: ['owner', 'repo', 'title', 'body'],
    },
    {
      name: 'list_pull_requests',
      description: 'List pull requests of a repository, open or closed.',
      properties: ['owner', 'repo', 'state'],
    },
    {
      name: 'get_file_contents',
      description: 'Get the contents of a file or directory from a repository.',
      properties: ['owner', 'repo', 'path'],
    },
    {
      name: 'search_code',
      description: 'Search code across GitHub repositories.',
      properties: ['q'],
    },
  ]),
  ...adapt('filesystem', [
    {
      name: 'read_file',
      description: 'Read the complete contents of a file from the file system.',
      properties: ['path'],
    },
    {
      name: 'write_file',
      description: 'Create a new file or overwrite an existing one.',
      properties: ['path', 'content'],
    },
    {
      name: 'list_directory',
      description: 'List the entries of a directory.',
      properties: ['path', 'recursive'],
    },
  ]),
  ...adapt('slack', [
    {
      name: 'postMessage',
      description: 'Post a message to a Slack channel.',
      properties: ['channel', 'text'],
    },
    { name: 'list_channels', description: 'List the public channels of the workspace.' },
  ]),
  ...adapt('postgres', [
    { name: 'query', description: 'Run a read-only SQL statement.', properties: ['sql'] },
  ]),
];
