import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { knownCallPrices } from '../../../src/visibility/checks/prices.js';
import { TestService, type TestWorkspace } from '../../support/harness.js';
import { FakeDataForSeo } from '../../integrations/fakes/dataforseo/serp.js';
import { FakeOpenAi } from '../../integrations/fakes/openai.js';
import { addQuery } from './support.js';

const HOUR_MS = 3_600_000;

let openai: FakeOpenAi;
let dfs: FakeDataForSeo;
let t: TestService;
beforeAll(async () => {
  openai = await FakeOpenAi.start();
  dfs = await FakeDataForSeo.start();
  t = await TestService.start({ env: { ENGINE_CHATGPT_BASE_URL: openai.baseUrl, ENGINE_CHATGPT_API_KEY: 'sk-openai', ...dfs.env(), CHECK_RUNS_PER_QUERY: '2' } });
});
afterAll(async () => {
  await t.close();
  await openai.close();
  await dfs.close();
});
beforeEach(() => {
  openai.reset();
  dfs.reset();
});

const check = (ws: TestWorkspace, input: Record<string, unknown>) => t.rest(ws.key, 'POST', '/api/v1/visibility/checks', input);
const data = <Data>(answer: { body: { data?: unknown } }) => answer.body.data as Data;
interface DryRun {
  dryRun: boolean;
  planned: number;
  note: string;
  cost: { providers: Array<{ provider: string; calls: number }> };
}
interface Started {
  started: boolean;
  jobId: string;
}
const runs = (ws: TestWorkspace) => t.db.selectFrom('check_runs').selectAll().where('workspace_id', '=', ws.workspaceId).orderBy('created_at').execute();

describe('run_visibility_check', () => {
  it('dry run: counts the checks and the provider calls, reading the first AI-overview and Copilot run from the rank pages, and changes nothing', async () => {
    const ws = await t.workspace();
    await addQuery(t, ws, 'best crm for agencies');
    await addQuery(t, ws, 'crm with invoicing');
    const answer = await check(ws, {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const dry = data<DryRun>(answer);
    expect(dry.dryRun).toBe(true);
    // 2 queries x (3 engines x 2 runs + 2 rank checks).
    expect(dry.planned).toBe(16);
    expect(dry.cost.providers.map((p: { provider: string; calls: number }) => [p.provider, p.calls])).toEqual([
      ['chatgpt', 4],
      ['google_ai_overview', 2],
      ['copilot', 2],
      ['serp_google', 2],
      ['serp_bing', 2],
    ]);
    // Local test servers are no provider's published endpoint: their prices are unknown, never made up.
    expect(dry.cost).toMatchObject({ knownUsd: 0, unpricedCalls: 12 });
    expect(dry.note).toContain('12 provider calls');
    expect(dry.note).toContain('read from the rank checks');
    expect(await runs(ws)).toEqual([]);
    expect(await t.db.selectFrom('jobs').select('id').where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });

  it('queues a durable job that starts the run of the chosen queries and engines; a run in progress is answered, not started twice', async () => {
    const ws = await t.workspace();
    const chosen = await addQuery(t, ws, 'best crm for dentists');
    await addQuery(t, ws, 'crm for plumbers');
    // The weekly run first (the next sweep starts it), so that only the on-demand run is left to follow.
    t.clock.advance(60_000);
    await t.jobs.drain();
    openai.reset();
    dfs.reset();
    const started = data<Started>(await check(ws, { queryIds: [chosen], engines: ['chatgpt'], ranks: false, confirm: true }));
    expect(started).toMatchObject({ started: true, jobId: expect.any(String), runId: null, planned: 2 });
    const again = data<Started>(await check(ws, { confirm: true }));
    expect(again).toMatchObject({ started: false, jobId: started.jobId });

    await t.jobs.drain();
    const job = data<{ job: { result: { runId: string } } }>(await t.rest(ws.key, 'GET', '/api/v1/job', { jobId: started.jobId }));
    expect(job.job).toMatchObject({ kind: 'check_run', state: 'done', result: { started: true, runId: expect.any(String), planned: 2, engines: ['chatgpt'] } });
    const [, run] = await runs(ws);
    expect(run).toMatchObject({ id: job.job.result.runId, trigger: 'on_demand', state: 'done', planned: 2, completed: 2 });
    expect(openai.requests).toHaveLength(2);
    expect(dfs.requests).toEqual([]);
    const answers = await t.db.selectFrom('engine_answers').select(['query_id', 'engine']).where('run_id', '=', run!.id).execute();
    expect(answers).toEqual([
      { query_id: chosen, engine: 'chatgpt' },
      { query_id: chosen, engine: 'chatgpt' },
    ]);
  });

  it('without rank checks, the AI overview is a SERP call of its own', async () => {
    const ws = await t.workspace();
    await addQuery(t, ws, 'crm for bakeries');
    const dry = data<DryRun>(await check(ws, { engines: ['google_ai_overview'], ranks: false }));
    expect(dry.cost.providers.map((p: { provider: string; calls: number }) => [p.provider, p.calls])).toEqual([['google_ai_overview', 2]]);
    await check(ws, { engines: ['google_ai_overview'], ranks: false, confirm: true });
    await t.jobs.drain();
    expect(dfs.requests.map((r) => r.path)).toEqual(Array(2).fill('/v3/serp/google/organic/live/advanced'));
  });

  it('starts at most 2 runs an hour, and the weekly run keeps its own rhythm', async () => {
    const ws = await t.workspace();
    await addQuery(t, ws, 'crm for florists');
    // The weekly run starts at the next sweep.
    t.clock.advance(60_000);
    await t.jobs.drain();
    expect((await runs(ws)).map((r) => r.trigger)).toEqual(['schedule']);
    const weeklyAt = t.clock.now();
    for (let i = 0; i < 2; i++) {
      t.clock.advance(60_000);
      expect(data<Started>(await check(ws, { engines: ['chatgpt'], ranks: false, confirm: true })).started).toBe(true);
      await t.jobs.drain();
    }
    t.clock.advance(60_000);
    const refused = await check(ws, { engines: ['chatgpt'], ranks: false, confirm: true });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain('at most 2 check runs on demand an hour');
    expect(refused.body.retryAfterMs).toBeGreaterThan(0);
    t.clock.advance(HOUR_MS);
    expect(data<Started>(await check(ws, { engines: ['chatgpt'], ranks: false, confirm: true })).started).toBe(true);
    await t.jobs.drain();
    // A week after the weekly run, not after the last on-demand one.
    t.clock.set(weeklyAt + 7 * 24 * HOUR_MS - 60_000);
    await t.jobs.drain();
    expect(await runs(ws)).toHaveLength(4);
    t.clock.set(weeklyAt + 7 * 24 * HOUR_MS);
    await t.jobs.drain();
    expect((await runs(ws)).map((r) => r.trigger)).toEqual(['schedule', 'on_demand', 'on_demand', 'on_demand', 'schedule']);
  });

  it('refuses an engine the operator has not configured, naming the settings, and a query of another workspace as not found', async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const foreign = await addQuery(t, other, 'crm for vets');
    const unconfigured = await check(ws, { engines: ['claude', 'gemini'] });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.error).toBe('engines: claude, gemini not configured: the operator sets ENGINE_CLAUDE_*, ENGINE_GEMINI_*');
    const notFound = await check(ws, { queryIds: [foreign], confirm: true });
    expect(notFound.status).toBe(404);
    expect(await runs(ws)).toEqual([]);
  });
});

describe('published call prices', () => {
  it('are known for the providers’ own endpoints only', () => {
    const official = knownCallPrices(
      loadConfig({ ENGINE_CHATGPT_API_KEY: 'k', ENGINE_GEMINI_API_KEY: 'k', SERP_BASE_URL: 'https://api.dataforseo.com', SERP_LOGIN: 'l', SERP_PASSWORD: 'p' }),
    );
    expect(official.chatgpt?.usdPerCall).toBe(0.01);
    expect(official.gemini?.usdPerCall).toBe(0.035);
    expect(official.serp_google?.usdPerCall).toBeCloseTo(0.005);
    expect(official.copilot).toEqual(official.serp_bing);
    const elsewhere = knownCallPrices(loadConfig({ ENGINE_CHATGPT_BASE_URL: 'http://127.0.0.1:11434/v1', ENGINE_COPILOT_API_KEY: 'serpapi-key' }));
    expect(elsewhere.chatgpt).toBeUndefined();
    expect(elsewhere.copilot?.usdPerCall).toBe(0.015);
    expect(knownCallPrices(loadConfig({ ENGINE_COPILOT_BASE_URL: 'https://www.searchapi.io/api/v1' })).copilot?.usdPerCall).toBe(0.004);
  });
});
