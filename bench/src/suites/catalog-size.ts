// Catalog size: what a model is shown of 30 servers × 20 tools when every tool is given to it
// (`direct`), against the one search tool (`mcp_tool_search`) plus a few tools kept shown
// (`search`); how long building the search index and one search take over the 600 tools; and
// whether the search finds the tool a task describes. The tools are generated from a fixed seed,
// in the shapes real servers list, and adapted with adaptTools as the manager adapts them.
import {
  adaptTools,
  createToolIndex,
  formatToolSearchResult,
  toolSearchTool,
  type McpTool,
} from '@garuda/mcp-tools';
import { summarize, type Row, type Section } from '../report.js';

const SEED = 0x7001_5eed;
const TOOLS_PER_SERVER = 20;
/** Tools a host keeps shown in search mode (the first ones of the first server). */
const DIRECT_TOOLS = 3;
/** Hits per search, the default a model gets. */
const HITS = 5;
const BUILD_ROUNDS = 40;
const SEARCH_ROUNDS = 20;
const WARMUP_ROUNDS = 3;
/** Characters per token, the usual rough estimate for English text and JSON. */
const CHARS_PER_TOKEN = 4;

/** A small seeded generator (mulberry32), so every run measures the same catalog. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Each server: its name, what the descriptions call it, and the four things it manages. */
const SERVERS: readonly (readonly [string, string, readonly [string, string, string, string]])[] = [
  ['github', 'a GitHub repository', ['issue', 'pull_request', 'branch', 'release']],
  ['gitlab', 'a GitLab project', ['merge_request', 'pipeline', 'issue', 'tag']],
  ['jira', 'a Jira project', ['ticket', 'sprint', 'epic', 'comment']],
  ['linear', 'a Linear team', ['issue', 'cycle', 'project', 'label']],
  ['slack', 'a Slack workspace', ['channel', 'message', 'reminder', 'user_group']],
  ['notion', 'a Notion workspace', ['page', 'database', 'block', 'comment']],
  ['postgres', 'a PostgreSQL database', ['table', 'index', 'view', 'role']],
  ['mysql', 'a MySQL server', ['schema', 'table', 'user', 'trigger']],
  ['sqlite', 'an SQLite file', ['table', 'row', 'index', 'view']],
  ['filesystem', 'the allowed folders', ['file', 'directory', 'symlink', 'archive']],
  ['git', 'a local Git repository', ['commit', 'branch', 'stash', 'remote']],
  ['docker', 'the Docker engine', ['container', 'image', 'volume', 'network']],
  ['kubernetes', 'a Kubernetes cluster', ['pod', 'deployment', 'service', 'secret']],
  ['aws', 'an AWS account', ['bucket', 'instance', 'lambda_function', 'queue']],
  ['gcp', 'a Google Cloud project', ['bucket', 'vm_instance', 'cloud_run_service', 'topic']],
  ['azure', 'an Azure subscription', ['resource_group', 'storage_account', 'web_app', 'key_vault']],
  ['stripe', 'a Stripe account', ['customer', 'invoice', 'subscription', 'refund']],
  ['sentry', 'a Sentry organisation', ['issue', 'event', 'release', 'alert_rule']],
  ['datadog', 'a Datadog account', ['monitor', 'dashboard', 'incident', 'log_pipeline']],
  ['pagerduty', 'a PagerDuty account', ['incident', 'schedule', 'escalation_policy', 'service']],
  ['confluence', 'a Confluence space', ['page', 'attachment', 'comment', 'space']],
  ['google-drive', 'Google Drive', ['file', 'folder', 'permission', 'shared_drive']],
  ['gmail', 'a Gmail mailbox', ['email', 'draft', 'label', 'filter']],
  ['calendar', 'Google Calendar', ['event', 'calendar', 'attendee', 'reminder']],
  ['figma', 'a Figma team', ['file', 'component', 'comment', 'style']],
  ['browser', 'the browser', ['tab', 'bookmark', 'download', 'cookie']],
  ['memory', 'the knowledge graph', ['entity', 'relation', 'observation', 'tag']],
  ['hubspot', 'a HubSpot portal', ['contact', 'deal', 'company', 'ticket']],
  ['zendesk', 'a Zendesk account', ['ticket', 'macro', 'article', 'organization']],
  ['vercel', 'a Vercel team', ['deployment', 'project', 'domain', 'env_variable']],
];

const VERBS = ['list', 'get', 'create', 'update', 'delete'] as const;
type Verb = (typeof VERBS)[number];

const EXTRA: readonly string[] = [
  'Results are paginated: pass the cursor from the previous page to get the next one.',
  'Needs a token with read access.',
  'Needs a token with write access to the project.',
  'Rate limited to 5 000 requests an hour per token.',
  'Dates are ISO 8601 in UTC.',
  'Fields that are not set are left out of the result.',
  'Archived items are included only when asked for.',
  'Use the matching search tool to find items by their text.',
  'The result is JSON with the same fields as the web API returns.',
  'Returns an error when the caller cannot see the item.',
  'Changes show up in the web interface within a few seconds.',
  'Names are compared without regard to case.',
];

function plural(noun: string): string {
  if (noun.endsWith('y') && !noun.endsWith('ey')) return `${noun.slice(0, -1)}ies`;
  return noun.endsWith('s') || noun.endsWith('x') || noun.endsWith('ch') ? `${noun}es` : `${noun}s`;
}

function words(noun: string): string {
  return noun.replaceAll('_', ' ');
}

function lead(verb: Verb, noun: string, place: string): string {
  const thing = words(noun);
  switch (verb) {
    case 'list':
      return `List the ${words(plural(noun))} in ${place}, newest first, with their ids, names and states.`;
    case 'get':
      return `Get one ${thing} of ${place} by its id, with all of its fields.`;
    case 'create':
      return `Create a new ${thing} in ${place} and return it with its id.`;
    case 'update':
      return `Update the fields of an existing ${thing} in ${place}; fields left out stay as they are.`;
    case 'delete':
      return `Delete a ${thing} from ${place}. This cannot be undone.`;
  }
}

/** A description of 100 to 400 characters: the lead sentence, then notes until the target. */
function description(verb: Verb, noun: string, place: string, next: () => number): string {
  const target = 100 + Math.floor(next() * 300);
  let text = lead(verb, noun, place);
  for (let tries = 0; tries < 20 && text.length < target; tries++) {
    const extra = EXTRA[Math.floor(next() * EXTRA.length)] ?? '';
    if (text.length + 1 + extra.length <= 400 && !text.includes(extra)) text += ` ${extra}`;
  }
  return text;
}

type Property = readonly [name: string, type: string, description: string];

function properties(verb: Verb, noun: string, next: () => number): Property[] {
  const id: Property = [`${noun}_id`, 'string', `The id of the ${words(noun)}.`];
  const pool: Record<Verb, Property[]> = {
    list: [
      ['limit', 'integer', 'How many items to return, 1 to 100 (default 30).'],
      ['cursor', 'string', 'The cursor of the page to return, from the previous result.'],
      ['state', 'string', 'Only items in this state: open, closed or all.'],
      ['sort', 'string', 'The field to sort by, such as created or updated.'],
      ['query', 'string', 'Only items whose text contains these words.'],
      ['owner', 'string', 'Only items created by this user.'],
    ],
    get: [
      id,
      ['fields', 'array', 'Which fields to return; all when left out.'],
      ['include_archived', 'boolean', 'Also find it when it is archived.'],
    ],
    create: [
      ['name', 'string', `The name of the new ${words(noun)}.`],
      ['description', 'string', 'A longer text; Markdown is allowed.'],
      ['labels', 'array', 'Labels to add, by name.'],
      ['assignee', 'string', 'The user to assign it to.'],
      ['parent_id', 'string', 'The id of the item it belongs to.'],
      ['private', 'boolean', 'Whether only members can see it.'],
    ],
    update: [
      id,
      ['name', 'string', 'The new name.'],
      ['description', 'string', 'The new description.'],
      ['state', 'string', 'The new state: open or closed.'],
      ['labels', 'array', 'The labels it should have, replacing the current ones.'],
    ],
    delete: [
      id,
      ['force', 'boolean', 'Delete it even when other items still refer to it.'],
      ['reason', 'string', 'Why it is deleted, kept in the audit log.'],
    ],
  };
  const all = pool[verb];
  const count = Math.min(all.length, 2 + Math.floor(next() * 5));
  return all.slice(0, Math.max(2, count));
}

function toolName(verb: Verb, noun: string): string {
  return verb === 'list' ? `list_${plural(noun)}` : `${verb}_${noun}`;
}

/** The 30 servers' raw tool lists, as `tools/list` gives them. */
function rawCatalog(): { server: string; tools: unknown[] }[] {
  const next = random(SEED);
  return SERVERS.map(([server, place, nouns]) => ({
    server,
    tools: nouns.flatMap((noun) =>
      VERBS.map((verb) => {
        const props = properties(verb, noun, next);
        return {
          name: toolName(verb, noun),
          description: description(verb, noun, place, next),
          inputSchema: {
            type: 'object',
            properties: Object.fromEntries(
              props.map(([name, type, text]) => [
                name,
                type === 'array'
                  ? { type, items: { type: 'string' }, description: text }
                  : { type, description: text },
              ]),
            ),
            required: props.filter(([name]) => name.endsWith('_id')).map(([name]) => name),
          },
          annotations: { readOnlyHint: verb === 'list' || verb === 'get' },
        };
      }),
    ),
  }));
}

/** A tool as a model API takes it. */
function definition(tool: { name: string; description: string; inputSchema: unknown }) {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

function chars(definitions: readonly unknown[]): number {
  return JSON.stringify(definitions).length;
}

function timed(rounds: number, run: () => void): number[] {
  for (let i = 0; i < WARMUP_ROUNDS; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/** What a person would type for a tool: other words for the verb, the thing, and the service. */
const SYNONYMS: Record<Verb, string> = {
  list: 'show all',
  get: 'fetch one',
  create: 'add a new',
  update: 'change the',
  delete: 'remove a',
};

function rankCheck(tools: readonly McpTool[], search: (query: string) => { name: string }[]) {
  let first = 0;
  let top = 0;
  for (const [server, place, nouns] of SERVERS) {
    for (const noun of nouns) {
      for (const verb of VERBS) {
        const wanted = tools.find((t) => t.server === server && t.tool === toolName(verb, noun));
        const query = `${SYNONYMS[verb]} ${words(noun)} in ${place.replace(/^(a|an|the) /, '')}`;
        const rank = search(query).findIndex((hit) => hit.name === wanted?.name);
        if (rank === 0) first += 1;
        if (rank !== -1) top += 1;
      }
    }
  }
  return { first, top, queries: SERVERS.length * 4 * VERBS.length };
}

/**
 * The catalog comparison: characters and estimated tokens of the tool definitions a model is
 * given in direct mode (all 600) and in search mode (`mcp_tool_search` and 3 tools), plus the
 * time to build the index and to search it.
 *
 * @returns One section.
 */
export function catalogSizeSuite(): Promise<Section[]> {
  const adapted = rawCatalog().map(({ server, tools }) => adaptTools(server, tools));
  const notices = adapted.flatMap((result) => result.notices);
  if (notices.length > 0)
    throw new Error(`the generated catalog has problems: ${notices.join('; ')}`);
  const tools = adapted.flatMap((result) => result.tools);
  const direct = tools.map(definition);
  const search = [definition(toolSearchTool()), ...tools.slice(0, DIRECT_TOOLS).map(definition)];
  const directChars = chars(direct);
  const searchChars = chars(search);
  const ratio = directChars / searchChars;

  const index = createToolIndex(tools);
  const queries = SERVERS.flatMap(([, place, nouns]) =>
    nouns.map((noun) => `${SYNONYMS.list} ${words(noun)} in ${place}`),
  );
  const build = timed(BUILD_ROUNDS, () => {
    createToolIndex(tools);
  });
  const perSearch = timed(SEARCH_ROUNDS, () => {
    for (const query of queries) index.search(query, { limit: HITS });
  }).map((ms) => (ms * 1000) / queries.length);
  const ranks = rankCheck(tools, (query) => index.search(query, { limit: HITS }));

  const sample = `open ${words('pull_request')}s`;
  const hits = index.search(sample, { limit: HITS });
  const resultChars = formatToolSearchResult(hits, index.get, { query: sample }).length;
  const foundChars = chars(hits.map((hit) => definition(index.get(hit.name) as McpTool)));

  const size = (name: string, value: number, unit: string, extra: Partial<Row> = {}): Row => ({
    name,
    median: value,
    p95: value,
    unit,
    samples: 1,
    ...extra,
  });
  const timing = (name: string, samples: readonly number[], unit: string): Row => ({
    name,
    ...summarize(samples),
    unit,
    samples: samples.length,
  });
  const searchName = 'search mode: mcp_tool_search + 3 tools';
  const searchTokens = 'search mode, estimated tokens';
  const rows: Row[] = [
    size(searchName, searchChars, 'chars'),
    size(`direct mode: all ${tools.length} tools`, directChars, 'chars', {
      baseline: searchName,
      ratio,
      higherIsBetter: false,
    }),
    size(searchTokens, searchChars / CHARS_PER_TOKEN, 'tokens'),
    size('direct mode, estimated tokens', directChars / CHARS_PER_TOKEN, 'tokens', {
      baseline: searchTokens,
      ratio,
      higherIsBetter: false,
    }),
    timing(`createToolIndex, ${tools.length} tools`, build, 'ms'),
    timing(`index.search, ${tools.length} tools, limit ${HITS}`, perSearch, 'µs'),
  ];
  const percent = (n: number) => `${((100 * n) / ranks.queries).toFixed(0)} %`;
  const notes = [
    `Catalog: ${SERVERS.length} servers × ${TOOLS_PER_SERVER} tools (list, get, create, update, delete of four things each, e.g. list_issues, get_pull_request), descriptions of 100–400 characters, input schemas of 2–6 properties with descriptions, generated from seed 0x${SEED.toString(16)} and adapted with adaptTools (so each description carries the untrusted-text prefix). Sizes are the JSON of [{ name, description, input_schema }] a model API is sent.`,
    `Tokens are estimated as characters / ${CHARS_PER_TOKEN}, not counted with a model's tokenizer. Search mode is ${((100 * searchChars) / directChars).toFixed(2)} % of direct mode (${ratio.toFixed(0)}× smaller).`,
    `Search mode costs per use: one search result of ${HITS} hits is ${resultChars} characters (query "${sample}"), and the ${hits.length} tools found are ${foundChars} characters more from the next turn.`,
    `Ranking check: ${ranks.queries} queries in other words than the tools' own ("show all pull requests in GitHub repository" for list_pull_requests, "remove a container in Docker engine" for delete_container): the tool meant is the first hit for ${ranks.first} (${percent(ranks.first)}) and among the first ${HITS} for ${ranks.top} (${percent(ranks.top)}). The verb is in other words too, so the five tools of one thing (list, get, create, update, delete) match such a query about equally: the first-hit figure is mostly which of the five comes first, the top-${HITS} figure whether the right thing of the right service is found.`,
    `Timings: median of ${BUILD_ROUNDS} index builds and of ${SEARCH_ROUNDS} rounds of ${queries.length} searches (per search), after ${WARMUP_ROUNDS} warm-up rounds, in this process.`,
  ];
  return Promise.resolve([
    {
      id: 'catalog-size',
      title: 'Catalog size: 30 servers × 20 tools, direct vs search',
      rows,
      notes,
    },
  ]);
}
