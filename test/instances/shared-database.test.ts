import { describe, expect, it } from 'vitest';
import { runAutopilot } from '../../src/content/autopilot.js';
import { bootstrapFirstStart } from '../../src/workspace/firstStart.js';
import { enqueueJob } from '../../src/jobs/queue.js';
import { writtenArticle } from '../publishing/support.js';
import { twoInstancesOnOneDatabase } from '../support/instances.js';

/**
 * Two service instances on one database, each with its own connections (on PostgreSQL; on SQLite they share the one
 * connection SQLite allows a process), racing for the work that must happen once.
 */
const instances = twoInstancesOnOneDatabase();
const { clock } = instances;

describe('two instances on one database', () => {
  it('create one first-start workspace and one key when both start at the same moment', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => bootstrapFirstStart((i % 2 === 0 ? instances.first : instances.second).db, clock, { name: 'My site', siteUrl: 'https://first.example' })),
    );
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await instances.first.db.selectFrom('workspaces').select('id').execute()).toHaveLength(1);
    expect(await instances.first.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
  });

  it('publish an article once when both reach its auto-publish slot together', async () => {
    const ws = await instances.first.workspace();
    const destination = await instances.first.rest(ws.key, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://hooks.example/sightline', siteUrl: 'https://acme.example' });
    expect(destination.status, JSON.stringify(destination.body)).toBe(200);
    expect((await instances.first.rest(ws.key, 'POST', '/api/v1/settings/articles', { autoPublish: true })).status).toBe(200);
    const articleId = await writtenArticle(instances.first, ws);
    const runs = await Promise.all([instances.first, instances.second, instances.first, instances.second].map((t) => runAutopilot(t.db, clock, t.service.services, t.service.logger)));
    expect(runs.reduce((sum, run) => sum + run.published, 0)).toBe(1);
    const deliveries = await instances.first.db.selectFrom('deliveries').select(['id', 'event']).where('article_id', '=', articleId).execute();
    expect(deliveries).toEqual([{ id: expect.any(String), event: 'article.published' }]);
    expect(await instances.first.db.selectFrom('jobs').select('id').where('kind', '=', 'deliver').execute()).toHaveLength(1);
  });

  it('run a queued job once when both workers look at the same moment', async () => {
    const ws = await instances.first.workspace();
    const articleId = await writtenArticle(instances.first, ws, 'A page with no address yet');
    const jobId = await enqueueJob(instances.first.db, clock, { workspaceId: ws.workspaceId, kind: 'render_check', subjectId: articleId });
    const due = await instances.first.db.selectFrom('jobs').select('id').where('state', '=', 'queued').where('run_at', '<=', clock.now()).execute();
    const ran = await Promise.all([instances.first.jobs.runDue(), instances.second.jobs.runDue(), instances.first.jobs.runDue(), instances.second.jobs.runDue()]);
    // Each due job (this one and the earlier publish's delivery) ran on exactly one of the four looks.
    expect(ran.reduce((a, b) => a + b, 0)).toBe(due.length);
    expect(await instances.first.db.selectFrom('jobs').select(['state', 'attempts', 'result']).where('id', '=', jobId).executeTakeFirstOrThrow()).toEqual({
      state: 'done',
      attempts: 1,
      result: JSON.stringify({ skipped: 'the article has no address' }),
    });
  });

  it.skipIf(process.env.TEST_DATABASE_URL === undefined || process.env.TEST_DATABASE_URL === '')(
    "count a key's route cap once across both (PostgreSQL keeps the counters when Redis is not configured)",
    async () => {
      const ws = await instances.first.workspace();
      const statuses = [];
      for (let i = 0; i < 14; i++) statuses.push((await (i % 2 === 0 ? instances.first : instances.second).rest(ws.key, 'POST', '/api/v1/queries', { text: `shared cap query ${i}` })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    },
  );
});
