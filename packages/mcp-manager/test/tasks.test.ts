// Calls a server runs as tasks (the tasks extension, 2026-07-28), against the `tasks` fixture:
// approved once at creation, polled on the server that made it, the result framed and cleaned
// like a call's, cancel reaching the server, ids of no task refused, the end audited once.
import path from 'node:path';
import { readAuditLog } from '@garuda/mcp-audit';
import { TASK_POLLS_TO_COMPLETE } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import { UnknownTaskError, type McpManager, type McpTask } from '../src/index.js';
import { fixture, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

/** A started manager with the `tasks` fixture (`reports`) and a `normal` one (`plain`). */
async function start() {
  return ws.startProjectServers(
    { reports: fixture('tasks', ws.mark), plain: fixture('normal', ws.mark) },
    'once',
  );
}

/** Creates a `report` task, failing the test if the call did not become one. */
async function created(mcp: McpManager): Promise<McpTask> {
  const started = await mcp.callTask('mcp__reports__report', { topic: 'sales' });
  if (started.kind !== 'task') throw new Error(`no task: ${started.result.text}`);
  return started.task;
}

/** The fixture's record of what its task methods received. */
async function taskLog(mcp: McpManager): Promise<unknown[]> {
  const { text } = await mcp.call('mcp__reports__task_log', {});
  return JSON.parse(text.slice(text.indexOf('\n') + 1, text.lastIndexOf('\n'))) as unknown[];
}

describe('callTask', () => {
  it('is approved once; polling reaches the server; the result is framed and cleaned', async () => {
    const { mcp, prompter } = await start();
    const task = await created(mcp);
    expect(prompter.approvals.map((a) => a.tool)).toEqual(['report']);
    expect(task).toMatchObject({ server: 'reports', tool: 'mcp__reports__report' });
    expect(task.status).toBe('working');
    // The status message arrives cleaned: the escape is gone.
    expect(task.statusMessage).toBe('still working');
    expect(task.taskId).not.toBe('task-1');

    const seen: McpTask[] = [];
    for (let poll = 0; poll < TASK_POLLS_TO_COMPLETE; poll++) {
      seen.push(await mcp.getTask(task.taskId));
    }
    expect(seen.map((t) => t.status)).toEqual(['working', 'working', 'completed']);
    const done = seen[2];
    expect(done?.result?.isError).toBe(false);
    expect(done?.result?.text).toContain('<mcp_result server="reports" tool="report">');
    expect(done?.result?.text).toContain('report ready on sales');
    expect(done?.result?.text).not.toContain('\u001b');
    expect(done?.related).toBe(true);
    // Polling asked nothing more of the user.
    expect(prompter.approvals).toHaveLength(1);
    await mcp.close();

    // The approval and the end are audited, once each.
    const records = await readAuditLog(path.join(ws.home, 'audit.jsonl'));
    const calls = records.filter((r) => r.kind === 'call' && r.tool === 'report');
    expect(calls.map((r) => (r.kind === 'call' ? r.outcome : ''))).toEqual(['ok']);
  });

  it('is not created when the user declines the call', async () => {
    const { mcp, prompter } = await start();
    prompter.approve = false;
    await expect(mcp.callTask('mcp__reports__report', { topic: 'x' })).rejects.toMatchObject({
      code: 'MANAGER_CALL_DECLINED',
    });
    prompter.approve = true;
    expect(await taskLog(mcp)).toEqual([]);
    await mcp.close();
  });

  it('cancel reaches the server that made the task', async () => {
    const { mcp } = await start();
    const task = await created(mcp);
    await mcp.cancelTask(task.taskId, { related: true });
    expect((await mcp.getTask(task.taskId)).status).toBe('cancelled');
    // The server got its own id, and the related-task metadata naming it.
    expect(await taskLog(mcp)).toEqual([
      { method: 'tasks/cancel', taskId: 'task-1', relatedTask: 'task-1' },
      { method: 'tasks/get', taskId: 'task-1', relatedTask: null },
    ]);
    await mcp.close();
  });

  it('refuses an id it did not give, and a server id', async () => {
    const { mcp } = await start();
    await created(mcp);
    await expect(mcp.getTask('task-1')).rejects.toSatisfy(UnknownTaskError.isInstance);
    await expect(mcp.cancelTask('not-a-task')).rejects.toMatchObject({
      code: 'MANAGER_UNKNOWN_TASK',
    });
    expect(await taskLog(mcp)).toEqual([]);
    await mcp.close();
  });

  it("never takes one server's task to another, though both servers name it alike", async () => {
    const { mcp } = await ws.startProjectServers(
      { reports: fixture('tasks', ws.mark), other: fixture('tasks', ws.mark) },
      'once',
    );
    const mine = await created(mcp);
    const started = await mcp.callTask('mcp__other__report', { topic: 'theirs' });
    if (started.kind !== 'task') throw new Error('no task');
    // Both servers call their first task "task-1"; the manager's ids tell them apart.
    expect(started.task.taskId).not.toBe(mine.taskId);
    await mcp.cancelTask(mine.taskId);
    expect((await mcp.getTask(started.task.taskId)).status).toBe('working');
    expect(await taskLog(mcp)).toEqual([
      { method: 'tasks/cancel', taskId: 'task-1', relatedTask: null },
    ]);
    const { text } = await mcp.call('mcp__other__task_log', {});
    expect(text).not.toContain('tasks/cancel');
    await mcp.close();
  });

  it('asks again as a plain call when the server answers with a question round', async () => {
    const { mcp, prompter } = await start();
    const answer = await mcp.callTask('mcp__reports__ask_first', {});
    expect(answer.kind).toBe('result');
    if (answer.kind === 'result') expect(answer.result.text).toContain('answered as a plain call');
    expect(prompter.approvals.map((a) => a.tool)).toEqual(['ask_first']);
    await mcp.close();
  });

  it('runs a task of a remote server (Streamable HTTP)', async () => {
    const remote = await ws.httpFixture({ mode: 'tasks' });
    const { mcp } = await ws.startUserServers({ web: { url: remote.url.href } });
    const started = await mcp.callTask('mcp__web__report', { topic: 'remote' });
    if (started.kind !== 'task') throw new Error('no task');
    let task = started.task;
    while (task.status === 'working') task = await mcp.getTask(task.taskId);
    expect(task.status).toBe('completed');
    expect(task.result?.text).toContain('report ready on remote');
    await mcp.close();
  });

  it('is a plain call on a server without the tasks extension', async () => {
    const { mcp } = await start();
    const answer = await mcp.callTask('mcp__plain__echo', { text: 'hi' });
    expect(answer.kind).toBe('result');
    if (answer.kind === 'result') expect(answer.result.text).toContain('hi');
    await mcp.close();
  });
});
