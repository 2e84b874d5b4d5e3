import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { runAutopilot } from '../../src/domain/content/autopilot.js';
import { bootstrapFirstStart } from '../../src/domain/firstStart.js';
import { writtenArticle } from '../publishing/support.js';
import { sharedTestDatabase } from '../support/database.js';
import { START_TIME, TestService } from '../support/harness.js';

/**
 * Two service instances on one database, each with its own connections (on PostgreSQL; on SQLite they share the one
 * connection SQLite allows a process), racing for the work that must happen once.
 */
let shared: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: TestService;
let second: TestService;
const clock = new ManualClock(START_TIME);

beforeAll(async () => {
  shared = await sharedTestDatabase();
  // Started together on an empty database: the migrations run once as well.
  [first, second] = await Promise.all([TestService.start({ database: shared.open(), clock }), TestService.start({ database: shared.open(), clock })]);
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await shared?.dispose();
});

describe('two instances on one database', () => {
  it('create one first-start workspace and one key when both start at the same moment', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => bootstrapFirstStart((i % 2 === 0 ? first : second).db, clock, { name: 'My site', siteUrl: 'https://first.example' })),
    );
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await first.db.selectFrom('workspaces').select('id').execute()).toHaveLength(1);
    expect(await first.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
  });

  it('publish an article once when both reach its auto-publish slot together', async () => {
    const ws = await first.workspace();
    const destination = await first.rest(ws.key, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://hooks.example/sightline', siteUrl: 'https://acme.example' });
    expect(destination.status, JSON.stringify(destination.body)).toBe(200);
    expect((await first.rest(ws.key, 'POST', '/api/v1/settings/articles', { autoPublish: true })).status).toBe(200);
    const articleId = await writtenArticle(first, ws);
    const runs = await Promise.all([first, second, first, second].map((t) => runAutopilot(t.db, clock, t.service.services, t.service.logger)));
    expect(runs.reduce((sum, run) => sum + run.published, 0)).toBe(1);
    const deliveries = await first.db.selectFrom('deliveries').select(['id', 'event']).where('article_id', '=', articleId).execute();
    expect(deliveries).toEqual([{ id: expect.any(String), event: 'article.published' }]);
    expect(await first.db.selectFrom('jobs').select('id').where('kind', '=', 'deliver').execute()).toHaveLength(1);
  });

  it('run a queued job once when both workers look at the same moment', async () => {
    const ws = await first.workspace();
    const articleId = await writtenArticle(first, ws, 'A page with no address yet');
    const job = await first.db
      .insertInto('jobs')
      .values({
        id: 'job_race',
        workspace_id: ws.workspaceId,
        kind: 'render_check',
        subject_id: articleId,
        payload: '{}',
        state: 'queued',
        attempts: 0,
        max_attempts: 3,
        run_at: clock.now(),
        lease_until: null,
        lease_token: null,
        progress: null,
        result: null,
        error: null,
        prompt_tokens: 0,
        completion_tokens: 0,
        created_at: clock.now(),
        started_at: null,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const due = await first.db.selectFrom('jobs').select('id').where('state', '=', 'queued').where('run_at', '<=', clock.now()).execute();
    const ran = await Promise.all([first.jobs.runDue(), second.jobs.runDue(), first.jobs.runDue(), second.jobs.runDue()]);
    // Each due job (this one and the earlier publish's delivery) ran on exactly one of the four looks.
    expect(ran.reduce((a, b) => a + b, 0)).toBe(due.length);
    expect(await first.db.selectFrom('jobs').select(['state', 'attempts', 'result']).where('id', '=', job.id).executeTakeFirstOrThrow()).toEqual({
      state: 'done',
      attempts: 1,
      result: JSON.stringify({ skipped: 'the article has no address' }),
    });
  });

  it.skipIf(process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '')(
    "count a key's route cap once across both (PostgreSQL keeps the counters when Redis is not configured)",
    async () => {
      const ws = await first.workspace();
      const statuses = [];
      for (let i = 0; i < 14; i++) statuses.push((await (i % 2 === 0 ? first : second).rest(ws.key, 'POST', '/api/v1/queries', { text: `shared cap query ${i}` })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    },
  );
});
