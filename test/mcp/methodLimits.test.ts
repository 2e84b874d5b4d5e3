import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VIEWS } from '../../src/mcp/apps.js';
import { TestService } from '../support/harness.js';
import { modernRequest, type ModernAnswer } from '../support/mcp2026.js';

// The MCP methods that are not tool calls (tasks/*, resources/read, prompts/get, the lists) count against the caller's rate
// limits as calls do, on the same counters, and over them answer -32603 with the refusal REST would give as `data`.

const DECLARING = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };
const NO_TASK = 'task_000000000000000000000000';
const NO_ARTICLE = 'sightline://articles/art_000000000000000000000000';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

function modern(key: string, method: string, params: Record<string, unknown>): Promise<ModernAnswer['body']> {
  return modernRequest(t.baseUrl, key, method, params, { capabilities: DECLARING }).then((answer) => answer.body);
}

/** A 2025-era request (no envelope), answered by a per-request server. */
async function legacy(key: string, method: string, params: Record<string, unknown>): Promise<ModernAnswer['body']> {
  return (await t.mcpRequest(key, method, params)).body as ModernAnswer['body'];
}

function expectRateLimited(answer: ModernAnswer['body'], reason: RegExp): void {
  expect(answer.result).toBeUndefined();
  expect(answer.error).toMatchObject({ code: -32603, message: expect.stringMatching(reason), data: { status: 429, error: expect.stringMatching(reason) } });
  expect(answer.error?.data?.retryAfterMs).toBeGreaterThan(0);
}

describe('rate limits on the MCP methods that are not tool calls', () => {
  it('count tasks/get, tasks/update and tasks/cancel against the plan limit, shared with tool calls', async () => {
    const ws = await t.workspace({ plan: 'trial' });
    // A client that did not declare the extension is refused before anything is counted.
    const undeclared = await modernRequest(t.baseUrl, ws.key, 'tasks/get', { taskId: NO_TASK });
    expect(undeclared.body.error?.code).toBe(-32021);
    // 60 a minute on the trial plan: a task followed every 5 s, as pollIntervalMs asks, costs 12 of them.
    for (let i = 0; i < 20; i++) {
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        expect((await modern(ws.key, method, { taskId: NO_TASK })).error).toEqual({ code: -32602, message: 'Task not found' });
      }
    }
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) expectRateLimited(await modern(ws.key, method, { taskId: NO_TASK }), /plan limit of 60 requests per minute/);
    const call = await t.mcpTool(ws.key, 'get_caller');
    expect(call).toMatchObject({ isError: true, structuredContent: { status: 429, retryAfterMs: expect.any(Number) } });
    // Another key of the workspace has its own budget.
    const other = await t.key(ws.workspaceId, ['read:analytics']);
    expect((await modern(other, 'tasks/get', { taskId: NO_TASK })).error?.code).toBe(-32602);
  });

  it("count a read of the brand memory on get_brand's cap, on the same counter as the tool, in both eras", async () => {
    const ws = await t.workspace();
    for (let i = 0; i < 20; i++) expect((await t.mcpTool(ws.key, 'get_brand')).isError).toBe(false);
    for (let i = 0; i < 20; i++) expect((await legacy(ws.key, 'resources/read', { uri: 'sightline://brand' })).result?.contents).toHaveLength(1);
    for (let i = 0; i < 20; i++) expect((await modern(ws.key, 'resources/read', { uri: 'sightline://brand' })).result?.contents).toHaveLength(1);
    const reason = /cap of 60 calls per minute on get_brand/;
    expectRateLimited(await legacy(ws.key, 'resources/read', { uri: 'sightline://brand' }), reason);
    expectRateLimited(await modern(ws.key, 'resources/read', { uri: 'sightline://brand' }), reason);
    expect(await t.mcpTool(ws.key, 'get_brand')).toMatchObject({ isError: true, structuredContent: { status: 429 } });
  });

  it("count article reads on list_content's cap, missing ones too; a uri the caller cannot read costs nothing", async () => {
    const ws = await t.workspace();
    const scopeless = await t.key(ws.workspaceId, ['write:social']);
    for (let i = 0; i < 5; i++) expect((await modern(scopeless, 'resources/read', { uri: NO_ARTICLE })).error?.code).toBe(-32602);
    for (let i = 0; i < 30; i++) expect((await modern(ws.key, 'resources/read', { uri: NO_ARTICLE })).error).toMatchObject({ code: -32602, data: { uri: NO_ARTICLE } });
    expectRateLimited(await modern(ws.key, 'resources/read', { uri: NO_ARTICLE }), /cap of 30 calls per minute on list_content/);
    expect(await t.mcpTool(ws.key, 'list_content')).toMatchObject({ isError: true, structuredContent: { status: 429 } });
  });

  it('count prompts and app views against the plan limit; an unknown prompt or view costs nothing', async () => {
    const ws = await t.workspace({ plan: 'trial' });
    const view = APP_VIEWS[0]!.uri;
    expect((await modern(ws.key, 'prompts/get', { name: 'no_such_prompt' })).error?.code).toBe(-32602);
    expect((await modern(ws.key, 'resources/read', { uri: 'ui://sightline/no-such-view' })).error?.code).toBe(-32602);
    for (let i = 0; i < 30; i++) {
      expect((await modern(ws.key, 'prompts/get', { name: 'weekly_visibility_review' })).result?.messages).toHaveLength(1);
      expect((await legacy(ws.key, 'resources/read', { uri: view })).result?.contents).toHaveLength(1);
    }
    const reason = /plan limit of 60 requests per minute/;
    expectRateLimited(await modern(ws.key, 'prompts/get', { name: 'weekly_visibility_review' }), reason);
    expectRateLimited(await legacy(ws.key, 'prompts/get', { name: 'weekly_visibility_review' }), reason);
    expectRateLimited(await modern(ws.key, 'resources/read', { uri: view }), reason);
  });

  it('count the lists against the plan limit, in both eras', async () => {
    const ws = await t.workspace({ plan: 'trial' });
    const lists = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'];
    for (let i = 0; i < 15; i++) {
      for (const method of lists) expect((i % 2 === 0 ? await modern(ws.key, method, {}) : await legacy(ws.key, method, {})).result).toBeDefined();
    }
    const reason = /plan limit of 60 requests per minute/;
    for (const method of lists) {
      expectRateLimited(await modern(ws.key, method, {}), reason);
      expectRateLimited(await legacy(ws.key, method, {}), reason);
    }
  });
});
