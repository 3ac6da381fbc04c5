// A gateway in front of a manager that starts lazily (`tools: { startMode: 'lazy' }`, what
// `garuda-mcp serve` runs by default): the host's first tools/list is answered from the pins and
// the tool cache with no server process started, a server starts on its first call (that one
// only), and a server whose tools changed behind its pin is caught when that call starts it: held
// for garuda_review, its call not sent. Each server runs through counted-server.mjs, which logs
// its pid, so the tests count launches, and reads its mode from a file, so a server can change
// its tools behind an unchanged definition.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { McpManager, type Prompter } from '@garuda/mcp-manager';
import {
  FIXTURE_SERVER,
  NORMAL_TOOL_NAMES,
  tempDir,
  waitFor,
  type TempDir,
} from '@garuda/test-utils';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../src/index.js';
import { REVIEW_TOOL } from '../src/review/review.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const COUNTED = path.join(import.meta.dirname, 'fixtures/counted-server.mjs');

let dir: TempDir;
let log: string;
let modeFile: string;
const open: { gateway: Gateway; host: Client }[] = [];

beforeEach(async () => {
  dir = await tempDir('garuda-gateway-lazy-');
  // In the project: the sandboxed servers may write the log and read the mode there.
  log = path.join(dir.path, 'project', 'launches.log');
  modeFile = path.join(dir.path, 'project', 'fixture-mode');
  await mkdir(path.join(dir.path, 'project', '.garuda'), { recursive: true });
  await writeFile(modeFile, 'normal');
  await writeFile(log, '');
  // `first` is the project's (its changed tools are asked about), `second` the user's.
  const home = path.join(dir.path, '.garuda');
  await mkdir(home, { recursive: true });
  await writeFile(path.join(home, 'mcp.json'), JSON.stringify({ servers: { second: entry() } }));
  await writeFile(
    path.join(dir.path, 'project', '.garuda', 'mcp.json'),
    JSON.stringify({ servers: { first: entry() } }),
  );
});

afterEach(async () => {
  await Promise.all(open.splice(0).map(closeBoth));
  await dir.cleanup();
});

async function closeBoth({ gateway, host }: { gateway: Gateway; host: Client }) {
  await host.close().catch(() => {});
  await gateway.close();
}

/** The servers launched so far (pids the counted fixture logged). */
async function launches(): Promise<number> {
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
}

const entry = () => ({ command: process.execPath, args: [COUNTED, log, modeFile, FIXTURE_SERVER] });

/** Rules set beforehand: servers trusted and remembered, every call allowed. */
const TRUSTING: Prompter = {
  consent: () => 'remember',
  notice: () => {},
  approveCall: () => true,
};

/** A gateway on the test's home with a host connected to it. */
async function gatewayWithHost(
  startMode: 'eager' | 'lazy',
  rules: Prompter,
  options: Omit<GatewayOptions, 'manager' | 'rules'> = {},
) {
  const gateway = createGateway({
    ...options,
    rules,
    manager: (hooks) =>
      new McpManager({
        root: path.join(dir.path, 'project'),
        home: path.join(dir.path, '.garuda'),
        userHome: dir.path,
        env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
        sandbox: { readPaths: [REPO_ROOT] },
        tools: { startMode },
        ...hooks,
      }),
  });
  const [hostSide, gatewaySide] = InMemoryTransport.createLinkedPair();
  await gateway.server().connect(gatewaySide);
  const host = new Client({ name: 'test-host', version: '1.0.0' });
  const opened = { gateway, host };
  open.push(opened);
  await host.connect(hostSide);
  return opened;
}

/** A first run that starts every server and pins its tools (as a user's first start does). */
async function pinEveryServer(): Promise<void> {
  const first = await gatewayWithHost('eager', TRUSTING);
  const names = (await first.host.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['first__echo', 'second__echo']));
  open.splice(open.indexOf(first), 1);
  await closeBoth(first);
  expect(await launches()).toBe(2);
  await writeFile(log, '');
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[])
    .map((block) => block.text ?? '')
    .join('\n');
}

describe('a gateway in front of a lazy start', () => {
  it('answers the first tools/list from the pins with no server started; a call starts its server only', async () => {
    await pinEveryServer();
    const { gateway, host } = await gatewayWithHost('lazy', TRUSTING, { approvals: 'rules' });
    const names = (await host.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['first__echo', 'second__echo', 'first__add', 'second__add']),
    );
    expect(names).toHaveLength(2 * NORMAL_TOOL_NAMES.length);
    expect(await launches()).toBe(0);
    expect(new Set(gateway.manager.status().map((row) => row.state))).toEqual(new Set(['ready']));

    const result = await host.callTool({ name: 'first__echo', arguments: { text: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^<mcp_result server="first" tool="echo">\n[\s\S]*hello/);
    expect(await launches()).toBe(1);
    const states = Object.fromEntries(gateway.manager.status().map((row) => [row.name, row.state]));
    expect(states).toEqual({ first: 'connected', second: 'ready' });
  });

  it('holds a project server whose tools changed behind its pin when its first call starts it', async () => {
    await pinEveryServer();
    await writeFile(modeFile, 'changed');
    // Nothing set beforehand allows the changed tools: they wait for garuda_review.
    const refusing: Prompter = { ...TRUSTING, consent: () => 'deny' };
    const { host } = await gatewayWithHost('lazy', refusing);
    const before = (await host.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('first__echo');
    expect(before).not.toContain(REVIEW_TOOL);
    expect(await launches()).toBe(0);

    const result = await host.callTool({ name: 'first__echo', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('you did not allow its changed tools');
    expect(textOf(result)).not.toContain('<mcp_result');
    expect(await launches()).toBe(1);
    const after = (await host.listTools()).tools.map((tool) => tool.name);
    expect(after).toContain(REVIEW_TOOL);
    expect(after.filter((name) => name.startsWith('first__'))).toEqual([]);
    expect(after).toContain('second__echo');
  });

  it("a host's resource list starts the servers offered from their pins, in the background; their resources follow", async () => {
    await writeFile(modeFile, 'library');
    await pinEveryServer();
    const { host } = await gatewayWithHost('lazy', TRUSTING, { approvals: 'rules' });
    await host.listTools();
    expect(await launches()).toBe(0);
    let changed = 0;
    host.setNotificationHandler('notifications/resources/list_changed', () => {
      changed += 1;
    });
    // Answered at once with what runs now (nothing); the servers start behind the answer.
    await host.listResources();
    const servers = await waitFor(
      async () => {
        const { resources } = await host.listResources();
        const named = new Set(resources.map((resource) => resource.uri.split('/')[2]));
        // The host was told (a host that does not poll lists again on list_changed).
        return named.has('first') && named.has('second') && changed > 0 ? named : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect([...servers].sort()).toEqual(['first', 'second']);
    expect(await launches()).toBe(2);
  });
});
