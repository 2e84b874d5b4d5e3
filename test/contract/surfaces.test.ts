import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/scopes.js';
import { registry } from '../../tools/index.js';
import { scopeText } from '../../tools/define.js';
import type { JsonSchema, RegisteredMcpOperation, RegisteredOperation } from '../../tools/registry.js';
import { TestService, type Answer, type McpToolAnswer } from '../support/harness.js';
import { approvalProblems, dryRunProblems, outputProblems } from '../support/answerSchemas.js';
import { snapshot } from '../support/snapshot.js';
import { closeCloudflare, cdnEnv } from './cloudflare.js';
import { closePostiz } from './schedulers.js';
import { fixtures } from './fixtures.js';
import { sharedSiteBuilderFakes } from '../integrations/fakes/siteBuilders.js';

type Input = Record<string, unknown>;

let t: TestService;
beforeAll(async () => {
  // Private targets allowed: detect_site_pages's fixture reads a sitemap from a local https site.
  // One engine configured, so run_visibility_check has something to plan; its checks are never run here.
  // The site builders are local fakes the install fixtures put sites on.
  t = await TestService.start({ outbound: { allowPrivateAddresses: true }, env: { ENGINE_PERPLEXITY_BASE_URL: 'http://127.0.0.1:9', SOCIAL_SOURCES_OFF: 'stackexchange', HACKERNEWS_BASE_URL: 'http://127.0.0.1:9', ...(await cdnEnv()), ...(await sharedSiteBuilderFakes()).env } });
});
afterAll(async () => {
  await t.close();
  await closeCloudflare();
  await closePostiz();
});

const call = (key: string | undefined, op: RegisteredOperation, input: Input = {}): Promise<Answer> => t.rest(key, op.method, op.path, input);
const publicOperations = registry.operations.filter((op) => op.scope === 'public');

function properties(op: RegisteredOperation): Record<string, JsonSchema> {
  return (op.inputJsonSchema.properties ?? {}) as Record<string, JsonSchema>;
}

/** A value of the wrong JSON type for the first field that can carry one on this surface, or undefined. */
function wrongType(op: RegisteredOperation): [string, unknown] | undefined {
  for (const [name, schema] of Object.entries(properties(op))) {
    if (name === 'confirm') continue;
    const type = schema.type;
    if (op.method === 'GET') {
      if (type === 'number' || type === 'integer' || type === 'boolean') return [name, 'not-a-value'];
      continue;
    }
    if (type === 'string') return [name, 12345];
    if (type !== undefined) return [name, 'not-a-value'];
  }
  return undefined;
}

function expectMcpError(answer: McpToolAnswer, status: number): void {
  expect(answer.isError, answer.text).toBe(true);
  expect(answer.structuredContent.status).toBe(status);
}

describe('fixtures cover the registry', () => {
  it('every operation has a valid-input fixture, and one naming a foreign object when it takes an id', () => {
    for (const op of registry.tools) {
      const fixture = fixtures[op.operationId];
      expect(fixture, `test/contract/fixtures.ts has no entry for ${op.operationId}`).toBeDefined();
      const takesId = Object.keys(properties(op)).some((name) => /Id$/.test(name));
      if (takesId) expect(fixture?.foreign, `${op.operationId} takes an id: add a foreign fixture`).toBeDefined();
    }
  });
});

describe.each(registry.tools.map((op) => [op.operationId, op] as const))('%s', (_id, op: RegisteredMcpOperation) => {
  const fixture = fixtures[op.operationId]!;

  it('is a REST route and an MCP tool, and refuses a missing or invalid key with 401 on both', async () => {
    const ws = await t.workspace();
    expect((await call(undefined, op)).status).toBe(401);
    const badKey = await call('slk_not-a-real-key', op);
    expect(badKey.status).toBe(401);
    expect(badKey.body.error).toEqual(expect.any(String));
    expect(badKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await t.mcpRequest(undefined, 'tools/list')).status).toBe(401);
    expect((await t.mcpRequest('slk_not-a-real-key', 'tools/call', { name: op.operationId, arguments: {} })).status).toBe(401);
    expect(await t.mcpToolNames(ws.key)).toContain(op.operationId);
  });

  it.runIf(op.scope !== 'any')(`answers 403 without ${scopeText(op)} on both surfaces and is hidden from tools/list`, async () => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, ALL_SCOPES.filter((s) => s !== op.scope && !op.alsoAccepts.includes(s)));
    const rest = await call(key, op, await fixture.valid(t, ws));
    expect(rest.status).toBe(403);
    expect(rest.body.error).toContain(scopeText(op));
    expectMcpError(await t.mcpTool(key, op.operationId, await fixture.valid(t, ws)), 403);
    expect(await t.mcpToolNames(key)).not.toContain(op.operationId);
  });

  it.each([...(op.scope === 'any' ? [] : [op.scope]), ...op.alsoAccepts])('runs with %s alone, on both surfaces', async (scope) => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, [scope]);
    const confirm = op.confirm === 'required' ? { confirm: true } : {};
    // The fixture builds its objects with the workspace's all-scope key; the call under test uses the one scope.
    const rest = await call(key, op, { ...(await fixture.valid(t, ws)), ...confirm });
    expect(rest.status, JSON.stringify(rest.body)).not.toBe(403);
    expect(await t.mcpToolNames(key)).toContain(op.operationId);
  });

  it('answers 400 naming the field for bad input on both surfaces, and changes nothing', async () => {
    const ws = await t.workspace();
    const bad: Input[] = [{ ...(await fixture.valid(t, ws)), notAField: 1 }];
    const wrong = wrongType(op);
    if (wrong !== undefined) bad.push({ ...(await fixture.valid(t, ws)), [wrong[0]]: wrong[1] });
    for (const input of bad) {
      const field = 'notAField' in input ? 'notAField' : wrong![0];
      // A key per round, so that low route caps (3 calls a minute) leave room for the fixtures' own calls.
      const key = await t.key(ws.workspaceId, ALL_SCOPES);
      const before = await snapshot(t.db);
      const rest = await call(key, op, input);
      expect(rest.status, JSON.stringify(rest.body)).toBe(400);
      expect(rest.body.error).toMatch(new RegExp(`\\b${field}\\b`));
      const mcp = await t.mcpTool(key, op.operationId, input);
      expectMcpError(mcp, 400);
      expect(mcp.text).toBe(rest.body.error);
      expect(await snapshot(t.db)).toEqual(before);
    }
  });

  it.runIf(typeof op.cap === 'number')(`allows ${String(op.cap)} calls a minute per key across both surfaces, then 429`, async () => {
    const ws = await t.workspace();
    const cap = op.cap as number;
    for (let i = 0; i < cap; i++) {
      if (i % 2 === 0) expect((await call(ws.key, op)).status).not.toBe(429);
      // A screen not yet activated answers null, as text without structured content.
      else expect((await t.mcpTool(ws.key, op.operationId)).structuredContent?.status).not.toBe(429);
    }
    const rest = await call(ws.key, op);
    expect(rest.status).toBe(429);
    expect(rest.body.retryAfterMs).toBeGreaterThan(0);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(rest.headers.get('ratelimit-policy')).toContain(`"route";q=${cap};w=60`);
    expect(rest.headers.get('ratelimit')).toMatch(/r=0/);
    const mcp = await t.mcpTool(ws.key, op.operationId);
    expectMcpError(mcp, 429);
    expect(mcp.structuredContent.retryAfterMs).toBeGreaterThan(0);
    // Another key of the same workspace has its own budget.
    expect((await call(await t.key(ws.workspaceId, ALL_SCOPES), op)).status).not.toBe(429);
  });

  it('gives the same answer on both surfaces', async () => {
    const ws = await t.workspace();
    if (op.annotations.readOnlyHint || op.confirm === 'dry-run') {
      const input = await fixture.valid(t, ws);
      const rest = await call(ws.key, op, input);
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      const mcp = await t.mcpTool(ws.key, op.operationId, input);
      expect(mcp.isError).toBe(false);
      expect(mcp.structuredContent).toEqual(rest.body.data);
      expect(JSON.parse(mcp.text)).toEqual(rest.body.data);
    } else {
      const confirm = op.confirm === 'required' ? { confirm: true } : {};
      const rest = await call(ws.key, op, { ...(await fixture.valid(t, ws)), ...confirm });
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      const mcp = await t.mcpTool(ws.key, op.operationId, { ...(await fixture.valid(t, ws)), ...confirm });
      expect(mcp.isError, mcp.text).toBe(false);
      expect(Object.keys(mcp.structuredContent).sort()).toEqual(Object.keys(rest.body.data as object).sort());
    }
  });

  it('answers what its output schema documents, on both surfaces', async () => {
    const ws = await t.workspace();
    const confirm = op.confirm === 'none' ? {} : { confirm: true };
    const documented = op.approval === 'owner' ? approvalProblems : (data: unknown) => outputProblems(op, data);
    const rest = await call(ws.key, op, { ...(await fixture.valid(t, ws)), ...confirm });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(documented(rest.body.data), `REST: ${JSON.stringify(rest.body.data)}`).toEqual([]);
    const mcp = await t.mcpTool(ws.key, op.operationId, { ...(await fixture.valid(t, ws)), ...confirm });
    expect(mcp.isError, mcp.text).toBe(false);
    expect(documented(mcp.structuredContent), `MCP: ${mcp.text}`).toEqual([]);
    if (op.confirm === 'dry-run') {
      const dryRun = await call(ws.key, op, await fixture.valid(t, ws));
      expect(dryRunProblems(dryRun.body.data), JSON.stringify(dryRun.body)).toEqual([]);
    }
  });

  it.runIf(op.confirm !== 'none')(`without confirm: true changes nothing (${op.confirm})`, async () => {
    const ws = await t.workspace();
    const input = await fixture.valid(t, ws);
    const before = await snapshot(t.db);
    const rest = await call(ws.key, op, input);
    const mcp = await t.mcpTool(ws.key, op.operationId, input);
    if (op.confirm === 'dry-run') {
      expect(rest.status).toBe(200);
      // Some dry runs add facts beside the note (generate_article: withinDailyLimit, nextWriteAt).
      expect(rest.body.data).toMatchObject({ dryRun: true, note: expect.any(String) });
      expect(mcp.structuredContent).toEqual(rest.body.data);
    } else {
      expect(rest.status).toBe(400);
      expect(rest.body.error).toMatch(/^confirm: /);
      expectMcpError(mcp, 400);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it.runIf(fixture.foreign !== undefined)("answers 404 for another workspace's object, exactly as for a missing one, and changes nothing", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other Co', site: 'https://other.example' });
    const foreign = await fixture.foreign!(t, other);
    for (const input of [foreign, { ...foreign, confirm: true }].filter((i) => op.confirm !== 'none' || !('confirm' in i))) {
      const key = await t.key(ws.workspaceId, ALL_SCOPES);
      const before = await snapshot(t.db);
      const rest = await call(key, op, input);
      expect(rest.status, JSON.stringify(rest.body)).toBe(404);
      const mcp = await t.mcpTool(key, op.operationId, input);
      expectMcpError(mcp, 404);
      expect(await snapshot(t.db)).toEqual(before);
      // An id field, or a list of ids (then the foreign list holds one).
      const idField = Object.keys(foreign).find((name) => /Ids?$/.test(name))!;
      const missingInput = { ...input, [idField]: Array.isArray(foreign[idField]) ? ['missing_0000'] : 'missing_0000' };
      const missing = await call(key, op, missingInput);
      expect(missing.status).toBe(404);
      expect(rest.body.error).toBe(String(missing.body.error).replace('missing_0000', String(foreign[idField])));
      expect(mcp.text).toBe((await t.mcpTool(key, op.operationId, missingInput)).text.replace('missing_0000', String(foreign[idField])));
    }
  });
});

describe('plan limit', () => {
  it('counts every call of a key against its plan across operations and surfaces', async () => {
    const ws = await t.workspace({ plan: 'trial' });
    const used = new Map<string, number>();
    const quota = 60;
    const readable = registry.tools.filter((op) => op.annotations.readOnlyHint && Object.keys(properties(op)).length === 0);
    for (let i = 0; i < quota; i++) {
      const op = readable.find((o) => o.cap === 'plan' || o.cap === 'none' || (used.get(o.operationId) ?? 0) < (o.cap as number) - 1)!;
      used.set(op.operationId, (used.get(op.operationId) ?? 0) + 1);
      const status = i % 2 === 0 ? (await call(ws.key, op)).status : (await t.mcpTool(ws.key, op.operationId)).isError ? 0 : 200;
      expect(status).toBe(200);
    }
    const next = readable.find((o) => o.cap === 'plan' || o.cap === 'none' || (used.get(o.operationId) ?? 0) < (o.cap as number) - 1)!;
    const answer = await call(ws.key, next);
    expect(answer.status).toBe(429);
    expect(answer.body.error).toContain('plan limit of 60');
    expect(answer.headers.get('ratelimit-policy')).toContain('"plan";q=60;w=60');
  });
});

describe.each(publicOperations.map((op) => [op.operationId, op] as const))('public %s', (_id, op) => {
  // Calls of this operation from this test's address so far: its cap counts them all.
  let made = 0;
  const publicCall = (input: Input) => {
    made++;
    return call(undefined, op, input);
  };

  it('is a REST route that needs no key, and no MCP tool', async () => {
    const ws = await t.workspace();
    const answer = await publicCall({ notAField: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/notAField/);
    expect(await t.mcpToolNames(ws.key)).not.toContain(op.operationId);
    expect((await t.mcpRequest(ws.key, 'tools/call', { name: op.operationId, arguments: {} })).body.error).toEqual({ code: -32602, message: `Unknown tool: ${op.operationId}` });
  });

  it.runIf(typeof op.cap === 'number')(`allows ${String(op.cap)} calls a minute per client address, then 429`, async () => {
    while (made < (op.cap as number)) expect((await publicCall({})).status).not.toBe(429);
    const refused = await publicCall({});
    expect(refused.status).toBe(429);
    expect(refused.body.retryAfterMs).toBeGreaterThan(0);
  });
});
