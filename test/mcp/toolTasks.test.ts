import { CallToolResultV2Schema, CreateTaskResultV2Schema, GetTaskResultV2Schema, TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestWorkspace } from '../support/harness.js';
import { modernRequest } from '../support/mcp2026.js';
import { destinationAt, publish, startWithReceiver, stopWithReceiver, writtenArticle, type PublishingSetup } from '../publishing/support.js';

// The Tasks extension on /mcp: a tools/call that starts a background job is answered with a task for a 2026-07-28
// client that declared the extension, and tasks/get follows the job to the tool's answer.

const DECLARING = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };

let setup: PublishingSetup;
let ws: TestWorkspace;
let destinationId: string;

interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

async function modern(key: string, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = DECLARING): Promise<Answer> {
  const { status, body } = await modernRequest(setup.t.baseUrl, key, method, params, { capabilities });
  return { status, ...body };
}

const testEvent = (key: string, capabilities?: Record<string, unknown>) => modern(key, 'tools/call', { name: 'send_test_event', arguments: { destinationId } }, capabilities);

beforeAll(async () => {
  setup = await startWithReceiver();
  ws = await setup.t.workspace();
  destinationId = await destinationAt(setup.t, ws, setup.receiver, '/hook');
});
afterAll(() => stopWithReceiver(setup));

describe('tools/call answered with a task', () => {
  it('advertises the extension in server/discover', async () => {
    const discover = await modern(ws.key, 'server/discover', {});
    expect(discover.result).toMatchObject({ capabilities: { tools: { listChanged: false }, ...DECLARING } });
  });

  it('answers a call that started a job with a working task, which completes with the tool answer once the job is done', async () => {
    const started = await testEvent(ws.key);
    expect(started.status).toBe(200);
    expect(CreateTaskResultV2Schema.safeParse(started.result).success).toBe(true);
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 86_400_000, pollIntervalMs: 5000 });
    const taskId = String(started.result?.taskId);

    expect((await modern(ws.key, 'tasks/get', { taskId })).result).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    await setup.t.jobs.drain();
    const done = await modern(ws.key, 'tasks/get', { taskId });
    expect(GetTaskResultV2Schema.safeParse(done.result).success).toBe(true);
    expect(done.result).toMatchObject({ status: 'completed' });
    const result = done.result?.result as { structuredContent: Record<string, unknown>; content: Array<{ text: string }> };
    expect(CallToolResultV2Schema.safeParse(result).success).toBe(true);
    expect(result.structuredContent).toMatchObject({ destinationId, event: 'test', queued: true, jobId: expect.any(String) });
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ ...result.structuredContent, job: { id: result.structuredContent.jobId, kind: 'deliver', state: 'done' } });
    expect(setup.receiver.at('/hook')).toHaveLength(1);
  });

  it('cancels through tasks/cancel a job that has not run: the event is never sent', async () => {
    const before = setup.receiver.at('/hook').length;
    const taskId = String((await testEvent(ws.key)).result?.taskId);
    expect((await modern(ws.key, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    await setup.t.jobs.drain();
    expect((await modern(ws.key, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    expect(setup.receiver.at('/hook')).toHaveLength(before);
    // Its delivery is not left pending: the job's failure handler ran, as after a failed last attempt.
    const delivery = await setup.t.db
      .selectFrom('mcp_tasks')
      .innerJoin('mcp_task_jobs', 'mcp_task_jobs.task_id', 'mcp_tasks.id')
      .innerJoin('jobs', 'jobs.id', 'mcp_task_jobs.job_id')
      .innerJoin('deliveries', 'deliveries.id', 'jobs.subject_id')
      .select(['deliveries.state', 'deliveries.error'])
      .where('mcp_tasks.id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ state: 'failed', error: 'cancelled by the MCP client (tasks/cancel) before it started' });
  });

  it('answers plainly a client that did not declare the extension, a call that started nothing, and a 2025-era call', async () => {
    const plain = await testEvent(ws.key, {});
    expect(plain.result).toMatchObject({ resultType: 'complete', structuredContent: { destinationId, jobId: expect.any(String) } });
    const brand = await modern(ws.key, 'tools/call', { name: 'get_brand', arguments: {} });
    expect(brand.result).toMatchObject({ resultType: 'complete', structuredContent: { profile: expect.any(Object) } });
    const legacy = await setup.t.mcpTool(ws.key, 'send_test_event', { destinationId });
    expect(legacy.structuredContent).toMatchObject({ destinationId, jobId: expect.any(String) });
    await setup.t.jobs.drain();
  });

  it("keeps a task to the key that started it: another key of the workspace gets -32602, as for an unknown task", async () => {
    const taskId = String((await testEvent(ws.key)).result?.taskId);
    const otherKey = await setup.t.key(ws.workspaceId, ['manage:org', 'read:analytics']);
    const theirs = await modern(otherKey, 'tasks/get', { taskId });
    const unknown = await modern(ws.key, 'tasks/get', { taskId: 'task_000000000000000000000000' });
    expect(theirs.error).toEqual({ code: -32602, message: 'Task not found' });
    expect(unknown.error).toEqual(theirs.error);
    await setup.t.jobs.drain();
  });
});

describe('a task following one delivery job per destination', () => {
  let paths = 0;
  /** A workspace publishing to an active site and a feed, each at a fresh receiver path. */
  async function twoDestinations() {
    const workspace = await setup.t.workspace();
    const site = `/task-site-${++paths}`;
    const feed = `/task-feed-${paths}`;
    await destinationAt(setup.t, workspace, setup.receiver, site, { siteUrl: setup.receiver.origin });
    await destinationAt(setup.t, workspace, setup.receiver, feed, { name: `Feed ${paths}` });
    return { workspace, site, feed, contentId: await writtenArticle(setup.t, workspace) };
  }

  interface ToolResult {
    structuredContent: Record<string, unknown> & { deliveries?: Array<{ jobId: string; destinationName: string }> };
    content: Array<{ text: string }>;
    isError?: boolean;
  }

  async function completed(key: string, taskId: string): Promise<ToolResult> {
    const done = await modern(key, 'tasks/get', { taskId });
    expect(GetTaskResultV2Schema.safeParse(done.result).success).toBe(true);
    expect(done.result).toMatchObject({ status: 'completed' });
    const result = done.result?.result as ToolResult;
    expect(CallToolResultV2Schema.safeParse(result).success).toBe(true);
    return result;
  }

  const publishAsTask = (key: string, contentId: string) => modern(key, 'tools/call', { name: 'publish_content', arguments: { contentId, confirm: true } });

  it('publish_content: working until both deliveries are sent, then completed with the answer and both jobs', async () => {
    const { workspace, site, feed, contentId } = await twoDestinations();
    const started = await publishAsTask(workspace.key, contentId);
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(started.result?.taskId);
    expect((await modern(workspace.key, 'tasks/get', { taskId })).result).toMatchObject({ status: 'working', statusMessage: '0 of 2 jobs finished' });

    await setup.t.jobs.drain();
    const result = await completed(workspace.key, taskId);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ contentId, status: 'published', firstPublish: true });
    const jobIds = result.structuredContent.deliveries!.map((delivery) => delivery.jobId);
    expect(jobIds).toHaveLength(2);
    const { jobs } = JSON.parse(result.content[0]!.text) as { jobs: Array<{ id: string; kind: string; state: string }> };
    expect(jobs.map((job) => job.id).sort()).toEqual([...jobIds].sort());
    expect(jobs.every((job) => job.kind === 'deliver' && job.state === 'done')).toBe(true);
    expect(setup.receiver.at(site)).toHaveLength(1);
    expect(setup.receiver.at(feed)).toHaveLength(1);
  });

  it('publish_content: a destination refusing the delivery makes the completed result an error naming its job', async () => {
    const { workspace, feed, contentId } = await twoDestinations();
    setup.receiver.reply(feed, { status: 422, json: { error: 'bad slug' } });
    const taskId = String((await publishAsTask(workspace.key, contentId)).result?.taskId);
    await setup.t.jobs.drain();
    const result = await completed(workspace.key, taskId);
    const feedJob = await setup.t.db
      .selectFrom('mcp_task_jobs')
      .innerJoin('jobs', 'jobs.id', 'mcp_task_jobs.job_id')
      .select(['jobs.id', 'jobs.error'])
      .where('mcp_task_jobs.task_id', '=', taskId)
      .where('jobs.state', '=', 'failed')
      .executeTakeFirstOrThrow();
    const error = `background job ${feedJob.id} failed: ${feedJob.error}; 1 of 2 jobs done`;
    expect(result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: error }], structuredContent: { status: 500, error }, isError: true });
  });

  it('publish_content: tasks/cancel before the worker runs withdraws both deliveries and the task is cancelled', async () => {
    const { workspace, site, feed, contentId } = await twoDestinations();
    const taskId = String((await publishAsTask(workspace.key, contentId)).result?.taskId);
    expect((await modern(workspace.key, 'tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    await setup.t.jobs.drain();
    expect((await modern(workspace.key, 'tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled before any of its jobs started.' });
    expect(setup.receiver.at(site)).toHaveLength(0);
    expect(setup.receiver.at(feed)).toHaveLength(0);
    const rows = await setup.t.db
      .selectFrom('mcp_task_jobs')
      .innerJoin('jobs', 'jobs.id', 'mcp_task_jobs.job_id')
      .innerJoin('deliveries', 'deliveries.id', 'jobs.subject_id')
      .select(['jobs.state as job', 'deliveries.state as delivery', 'mcp_task_jobs.withdrawn_at'])
      .where('mcp_task_jobs.task_id', '=', taskId)
      .execute();
    expect(rows).toEqual([
      { job: 'failed', delivery: 'failed', withdrawn_at: expect.any(Number) },
      { job: 'failed', delivery: 'failed', withdrawn_at: expect.any(Number) },
    ]);
  });

  it('update_article_meta on a published article: a task following its republishing to both destinations', async () => {
    const { workspace, site, feed, contentId } = await twoDestinations();
    await publish(setup.t, workspace, contentId);
    await setup.t.jobs.drain();
    const dryRun = await modern(workspace.key, 'tools/call', { name: 'update_article_meta', arguments: { contentId, metaTitle: 'Dental CRMs compared' } });
    expect(dryRun.result).toMatchObject({ resultType: 'complete', structuredContent: { dryRun: true } });

    const started = await modern(workspace.key, 'tools/call', { name: 'update_article_meta', arguments: { contentId, metaTitle: 'Dental CRMs compared', confirm: true } });
    expect(started.result).toMatchObject({ resultType: 'task', status: 'working' });
    await setup.t.jobs.drain();
    const result = await completed(workspace.key, String(started.result?.taskId));
    expect(result.structuredContent).toMatchObject({ contentId, changed: ['metaTitle'], republished: true });
    const { jobs } = JSON.parse(result.content[0]!.text) as { jobs: Array<{ state: string }> };
    expect(jobs.map((job) => job.state)).toEqual(['done', 'done']);
    expect(setup.receiver.at(site).map((delivery) => delivery.body.event)).toEqual(['article.published', 'article.updated']);
    expect(setup.receiver.at(feed)).toHaveLength(2);
  });
});
