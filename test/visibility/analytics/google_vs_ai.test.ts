import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { googleVsAiReport } from '../../../tools/analytics/outputs.js';
import { TestService, START_TIME, type TestWorkspace } from '../../support/harness.js';
import { Seeder } from '../metrics/seed.js';

type GoogleVsAiReport = z.output<typeof googleVsAiReport>;

const RIVALS = Array.from({ length: 12 }, (_, i) => `https://rival.example/${i}`);

describe('get_google_vs_ai', () => {
  let t: TestService;
  let ws: TestWorkspace;
  const q: Record<string, string> = {};

  beforeAll(async () => {
    // chatgpt and perplexity by API; the SERP provider gives Google ranks and google_ai_overview; gemini, claude and copilot are not configured.
    t = await TestService.start({
      env: { ENGINE_CHATGPT_API_KEY: 'k', ENGINE_PERPLEXITY_API_KEY: 'k', SERP_BASE_URL: 'https://serp.example', SERP_LOGIN: 'login', SERP_PASSWORD: 'password' },
    });
    ws = await t.workspace();
    const seed = new Seeder(t, ws);
    for (const name of ['both', 'google', 'ai', 'neither', 'pending', 'failed']) q[name] = await seed.query(`crm question ${name}`);

    // A month ago: perplexity cited the brand for "ai" (its latest check, far older than the latest run).
    await seed.answer('2026-10-20T10:00:00Z', 'perplexity', q.ai!, 'See acme.example.', ['https://acme.example/guide']);
    // An older run cited the brand for "google"; the latest run did not: the latest check counts.
    seed.nextRun();
    await seed.answer('2026-11-10T10:00:00Z', 'chatgpt', q.google!, 'Acme Analytics.', ['https://acme.example/']);
    // This week's run: its rank checks first, then its answers.
    seed.nextRun();
    await seed.rank('2026-11-20T09:00:00Z', q.both!, 'google', [...RIVALS.slice(0, 3), 'https://acme.example/a']);
    await seed.rank('2026-11-20T09:00:00Z', q.google!, 'google', [...RIVALS.slice(0, 9), 'https://acme.example/b']);
    await seed.rank('2026-11-20T09:00:00Z', q.ai!, 'google', RIVALS);
    await seed.rank('2026-11-20T09:00:00Z', q.neither!, 'google', RIVALS);
    await seed.rank('2026-11-20T09:00:00Z', q.failed!, 'google', null);
    // Two runs of one check: none, then mentioned: the check mentioned the brand.
    await seed.answer('2026-11-20T10:00:00Z', 'chatgpt', q.both!, 'Use a spreadsheet.');
    await seed.answer('2026-11-20T10:00:01Z', 'chatgpt', q.both!, 'Acme Analytics does this.');
    await seed.answer('2026-11-20T10:00:02Z', 'chatgpt', q.google!, 'Use a spreadsheet.');
    await seed.answer('2026-11-20T10:00:03Z', 'perplexity', q.google!, 'Use a spreadsheet.', RIVALS.slice(0, 2));
    await seed.answer('2026-11-20T10:00:04Z', 'chatgpt', q.neither!, 'Use a spreadsheet.');
    await seed.failure('2026-11-20T10:00:05Z', 'perplexity', q.neither!);
    await seed.failure('2026-11-20T10:00:06Z', 'chatgpt', q.failed!);

    t.clock.set(START_TIME);
  });
  afterAll(() => t.close());

  it('gives each tracked query its Google place, the latest check of every engine and a state; failures and unconfigured engines are never none', async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/analytics/google-vs-ai');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const data = answer.body.data as GoogleVsAiReport;
    expect(data.engines).toEqual({ configured: ['chatgpt', 'perplexity', 'google_ai_overview', 'copilot'], notConfigured: ['gemini', 'claude'] });
    expect(data.googleConfigured).toBe(true);
    expect(data.summary).toEqual({ both: 1, google: 1, ai: 1, neither: 1, pending: 2 });
    const rows = Object.fromEntries(data.rows.map((row) => [row.queryText.replace('crm question ', ''), row]));
    expect(Object.keys(rows).sort()).toEqual(['ai', 'both', 'failed', 'google', 'neither', 'pending']);

    const notConfigured = { result: 'not_configured', checkedAt: null };
    const pending = { result: 'pending', checkedAt: null };
    expect(rows.both).toEqual({
      queryId: q.both,
      queryText: 'crm question both',
      state: 'both',
      google: { status: 'checked', position: 4, checkedAt: '2026-11-20T09:00:00.000Z' },
      engines: {
        chatgpt: { result: 'mentioned', checkedAt: '2026-11-20T10:00:01.000Z' },
        perplexity: pending,
        gemini: notConfigured,
        claude: notConfigured,
        google_ai_overview: pending,
        copilot: pending,
      },
    });
    expect(rows.google).toMatchObject({ state: 'google', google: { position: 10 }, engines: { chatgpt: { result: 'none' }, perplexity: { result: 'none' } } });
    expect(rows.ai).toMatchObject({ state: 'ai', google: { status: 'checked', position: null }, engines: { perplexity: { result: 'cited', checkedAt: '2026-10-20T10:00:00.000Z' } } });
    expect(rows.neither).toMatchObject({ state: 'neither', engines: { chatgpt: { result: 'none' }, perplexity: { result: 'failed' } } });
    expect(rows.pending).toMatchObject({ state: 'pending', google: { status: 'pending', position: null }, engines: { chatgpt: pending } });
    // Every check failed: nothing is known yet, which is not "neither".
    expect(rows.failed).toMatchObject({ state: 'pending', google: { status: 'pending' }, engines: { chatgpt: { result: 'failed' } } });
    expect((await t.mcpTool(ws.key, 'get_google_vs_ai')).structuredContent).toEqual(data);
  });

  it('answers a page of rows, in the order the queries were added, and filters by state while the summary counts every query', async () => {
    const page = async (query: Record<string, string>) => {
      const answer = await t.rest(ws.key, 'GET', '/api/v1/analytics/google-vs-ai', query);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as GoogleVsAiReport;
    };
    const ids = (rows: Array<{ queryId: string; state: string }>, state?: string) => rows.filter((row) => state === undefined || row.state === state).map((row) => row.queryId);
    const all = await page({});
    expect(ids(all.rows)).toHaveLength(6);
    const second = await page({ limit: '2', page: '2' });
    expect(ids(second.rows)).toEqual(ids(all.rows).slice(2, 4));
    expect(second).toMatchObject({ page: 2, limit: 2, total: 6, nextPage: 3, summary: { both: 1, google: 1, ai: 1, neither: 1, pending: 2 } });
    expect(await page({ limit: '2', page: '3' })).toMatchObject({ total: 6, nextPage: null });
    expect(await page({ limit: '2', page: '9' })).toMatchObject({ rows: [], total: 6, nextPage: null });

    const pending = await page({ state: 'pending' });
    expect(ids(pending.rows)).toEqual(ids(all.rows, 'pending'));
    expect(ids(pending.rows).sort()).toEqual([q.pending, q.failed].sort());
    expect(pending).toMatchObject({ page: 1, limit: 100, total: 2, nextPage: null, summary: { pending: 2, both: 1 } });
    expect((await t.mcpTool(ws.key, 'get_google_vs_ai', { state: 'pending' })).structuredContent).toEqual(pending);

    expect((await t.rest(ws.key, 'GET', '/api/v1/analytics/google-vs-ai', { state: 'ranked' })).body.error).toBe('state: must be one of both, google, ai, neither, pending');
    const tooMany = await t.rest(ws.key, 'GET', '/api/v1/analytics/google-vs-ai', { limit: '501' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/^limit: /);
  });
});

describe('get_google_vs_ai without engines or a SERP provider', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('shows every engine and Google as not configured, and the query as pending', async () => {
    const ws = await t.workspace();
    const seed = new Seeder(t, ws);
    await seed.query('crm for dentists');
    const data = (await t.rest(ws.key, 'GET', '/api/v1/analytics/google-vs-ai')).body.data as GoogleVsAiReport;
    expect(data.engines.configured).toEqual([]);
    expect(data.rows).toEqual([
      expect.objectContaining({
        state: 'pending',
        google: { status: 'not_configured', position: null, checkedAt: null },
        engines: expect.objectContaining({ chatgpt: { result: 'not_configured', checkedAt: null } }),
      }),
    ]);
  });
});
