import { GetTaskResultV2Schema, TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { registerTaskMethods, TASKS_CAPABILITY } from '../../adapters/mcpTasks.js';
import { ManualClock } from '../../src/clock.js';
import { createWorkspace } from '../../src/workspace/workspaces.js';
import { enqueueJob } from '../../src/jobs/queue.js';
import { MemoryLimiterStore } from '../../src/limits/memoryStore.js';
import { createTask } from '../../src/mcp/tasks.js';
import type { Principal } from '../../src/auth/principal.js';
import { RateLimits, type CapPolicy } from '../../src/pipeline/rateLimits.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { openTestDatabase } from '../support/database.js';

// tasks/get, tasks/update and tasks/cancel through the SDK's HTTP handler on the 2026-07-28 era, on a scratch server
// that has only them: the methods and their refusals, before the MCP adapter wires them in.

const MODERN = '2026-07-28';
const DECLARING = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };

let database: DatabaseHandle;
let owner: Principal;
const clock = new ManualClock(Date.parse('2026-11-28T09:00:00Z'));
let nextId = 1;
/** The service's own limits, counted in memory as Pipeline.consume counts them in the shared store. */
const limits = new RateLimits(new MemoryLimiterStore());
const pipeline = { consume: (principal: Principal, policy: CapPolicy) => limits.consume(RateLimits.subject(principal), policy) };

/** One handler serving every caller as the owner: the tests vary only what the client declares. */
function handlerFor(caller: () => Principal) {
  return createMcpHandler(() => {
    const server = new Server({ name: 'tasks-scratch', version: '1.0.0' }, { capabilities: TASKS_CAPABILITY });
    registerTaskMethods(server, { db: database.db, clock, pipeline }, caller());
    return server;
  });
}

async function call(handler: ReturnType<typeof createMcpHandler>, method: string, params: Record<string, unknown>, capabilities: object = DECLARING) {
  const response = await handler.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        'mcp-name': String(params.taskId),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    }),
  );
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  return { status: response.status, ...body };
}

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database);
  const workspaceId = await createWorkspace(database.db, clock, { name: 'Tasks', websiteUrl: 'https://tasks.example' });
  owner = { workspaceId, credentialId: 'grant:one', via: 'oauth', apiKeyId: null, grantId: 'one', userId: null, plan: 'scale', scopes: new Set(ALL_SCOPES) };
});
afterAll(async () => {
  await database.close();
});

async function startedTask() {
  const jobId = await enqueueJob(database.db, clock, { workspaceId: owner.workspaceId, kind: 'social_search' });
  return createTask(database.db, clock, owner, { operationId: 'search_social_threads', jobIds: [jobId], answer: { jobId, queued: true, sources: [] } });
}

describe('the Tasks extension methods over createMcpHandler (2026-07-28)', () => {
  it('answers tasks/get with the task, resultType complete', async () => {
    const task = await startedTask();
    const answer = await call(handlerFor(() => owner), 'tasks/get', { taskId: task.taskId });
    expect(answer.status).toBe(200);
    expect(answer.result).toMatchObject({ ...task, resultType: 'complete' });
    expect(GetTaskResultV2Schema.safeParse(answer.result).success).toBe(true);
  });

  it('acknowledges tasks/update (nothing to answer) and tasks/cancel, which cancels a job not yet started', async () => {
    const task = await startedTask();
    const handler = handlerFor(() => owner);
    const update = await call(handler, 'tasks/update', { taskId: task.taskId, inputResponses: { unknown: { action: 'decline' } } });
    expect(update.result).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(update.result ?? {}).filter((key) => key !== '_meta')).toEqual(['resultType']);
    const cancel = await call(handler, 'tasks/cancel', { taskId: task.taskId });
    expect(cancel.result).toMatchObject({ resultType: 'complete' });
    expect((await call(handler, 'tasks/cancel', { taskId: task.taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await call(handler, 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'cancelled' });
  });

  it('answers -32602 for an unknown task and for one of another credential, on every method alike', async () => {
    const task = await startedTask();
    const stranger = handlerFor(() => ({ ...owner, credentialId: 'grant:two' }));
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { inputResponses: {} } : {};
      const unknown = await call(handlerFor(() => owner), method, { taskId: 'task_000000000000000000000000', ...params });
      const theirs = await call(stranger, method, { taskId: task.taskId, ...params });
      expect(unknown.error).toEqual({ code: -32602, message: 'Task not found' });
      expect(theirs.error).toEqual(unknown.error);
    }
    expect((await call(handlerFor(() => owner), 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'working' });
  });

  it('refuses a client that did not declare the extension with -32021 naming it, on every method', async () => {
    const task = await startedTask();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const params = method === 'tasks/update' ? { inputResponses: {} } : {};
      const refused = await call(handlerFor(() => owner), method, { taskId: task.taskId, ...params }, {});
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } } });
    }
    expect((await call(handlerFor(() => owner), 'tasks/get', { taskId: task.taskId })).result).toMatchObject({ status: 'working' });
  });

  it('advertises the extension in server/discover', async () => {
    const discover = await call(handlerFor(() => owner), 'server/discover', {});
    expect(discover.result).toMatchObject({ capabilities: TASKS_CAPABILITY });
  });
});
