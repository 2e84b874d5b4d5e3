import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import { expectBadInput } from '../brand/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { article, commit, iso, markWritten, ok } from './calendarSupport.js';

interface Listed {
  id: string;
  title: string;
  status: string;
  scheduledAt: string;
  writing: boolean;
  healthScore: number | null;
  citabilityScore: number | null;
  google: null;
  archivedAt: string | null;
}

describe('planned titles, archiving and the content list', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  const refusedUnchanged = async (ws: TestWorkspace, path: string, input: Record<string, unknown>, field: string, rule: string) => {
    const before = await snapshot(t.db);
    expectBadInput(await t.rest(ws.key, 'POST', path, input), field, rule);
    expect(await snapshot(t.db)).toEqual(before);
  };
  /** What generate_article leaves while the write job runs. */
  const beingWritten = async (ws: TestWorkspace, contentId: string) => {
    const jobId = await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind: 'write_article', subjectId: contentId });
    await t.db.updateTable('articles').set({ writing_job_id: jobId, write_requested_at: t.clock.now() }).where('id', '=', contentId).execute();
  };

  describe('delete_planned_title', () => {
    it('removes the planned row, frees its slot, and returns its keyword to the ideas as a saved query with the title', async () => {
      const ws = await t.workspace();
      const [planned] = (await commit(t, ws, 1)).planned;
      const answer = await ok<{ returnedToIdeas: { queryId: string } }>(t, ws, 'POST', '/api/v1/content/delete-planned', { contentId: planned!.contentId });
      expect(answer).toEqual({
        deleted: true,
        contentId: planned!.contentId,
        title: 'Article 1',
        keyword: 'article keyword 1',
        returnedToIdeas: { queryId: expect.stringMatching(/^qry_/), created: true },
      });
      expect(await t.db.selectFrom('articles').select('id').where('id', '=', planned!.contentId).execute()).toEqual([]);
      const ideas = await ok<{ ideas: Array<Record<string, unknown>> }>(t, ws, 'GET', '/api/v1/content/ideas');
      expect(ideas.ideas).toEqual([expect.objectContaining({ id: answer.returnedToIdeas.queryId, queryText: 'article keyword 1', suggestedTitle: 'Article 1', source: 'returned' })]);
      expect((await commit(t, ws, 1, 'Next')).planned[0]!.scheduledAt).toBe(planned!.scheduledAt);
    });

    it('brings back a hidden tracked query rather than adding a second, keeping its own title', async () => {
      const ws = await t.workspace();
      const added = await ok<{ query: { id: string } }>(t, ws, 'POST', '/api/v1/queries', { text: 'Article keyword 1' });
      await ok(t, ws, 'POST', '/api/v1/content/ideas/hide', { queryId: added.query.id });
      const [planned] = (await commit(t, ws, 1)).planned;
      const answer = await ok(t, ws, 'POST', '/api/v1/content/delete-planned', { contentId: planned!.contentId });
      expect(answer).toMatchObject({ returnedToIdeas: { queryId: added.query.id, created: false } });
      const ideas = await ok<{ ideas: Array<Record<string, unknown>> }>(t, ws, 'GET', '/api/v1/content/ideas');
      expect(ideas.ideas).toEqual([expect.objectContaining({ id: added.query.id, queryText: 'Article keyword 1', suggestedTitle: 'Article 1' })]);
    });

    it('refuses a written article (use archive) and a planned one being written', async () => {
      const ws = await t.workspace();
      const { planned } = await commit(t, ws, 2);
      await markWritten(t, planned[0]!.contentId);
      await refusedUnchanged(ws, '/api/v1/content/delete-planned', { contentId: planned[0]!.contentId }, 'contentId', 'only planned rows can be deleted and this article is draft; use archive_content');
      await beingWritten(ws, planned[1]!.contentId);
      await refusedUnchanged(ws, '/api/v1/content/delete-planned', { contentId: planned[1]!.contentId }, 'contentId', 'the article is being written');
    });
  });

  describe('archive_content', () => {
    it('is refused while the article is being written', async () => {
      const ws = await t.workspace();
      const [planned] = (await commit(t, ws, 1)).planned;
      await beingWritten(ws, planned!.contentId);
      await refusedUnchanged(ws, '/api/v1/content/archive', { contentId: planned!.contentId }, 'contentId', 'the article is still being written');
    });

    it('archives a published article for good, sends nothing to the site, and repeating it changes nothing', async () => {
      const ws = await t.workspace();
      const [planned] = (await commit(t, ws, 1)).planned;
      const url = 'https://acme.example/blog/article-1';
      await markWritten(t, planned!.contentId, { status: 'published', published_at: t.clock.now(), url });
      const jobsBefore = await t.db.selectFrom('jobs').selectAll().execute();
      const archived = await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned!.contentId });
      expect(archived).toEqual({
        contentId: planned!.contentId,
        title: 'Article 1',
        status: 'archived',
        previousStatus: 'published',
        archivedAt: iso(t.clock.now()),
        alreadyArchived: false,
        url,
      });
      expect(await article(t, planned!.contentId)).toMatchObject({ status: 'archived', archived_at: t.clock.now(), url });
      expect(await t.db.selectFrom('jobs').selectAll().execute()).toEqual(jobsBefore);
      expect(await t.db.selectFrom('deliveries').selectAll().where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);

      t.clock.advance(60_000);
      const before = await snapshot(t.db);
      expect(await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned!.contentId })).toEqual({ ...archived, previousStatus: null, alreadyArchived: true });
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  it('gives each article of a workspace its own slug, so the Content API and receivers can key posts by it', async () => {
    const ws = await t.workspace();
    const titles = [{ title: 'Best CRM for dentists', keyword: 'crm dentists' }, { title: 'Best CRM for dentists!', keyword: 'dental crm' }, { title: 'Best CRM for dentists', keyword: 'crm for dental clinics' }];
    const { planned } = await ok<{ planned: Array<{ contentId: string }> }>(t, ws, 'POST', '/api/v1/content/plan/commit', { titles });
    const slugs = await Promise.all(planned.map(async (p) => (await article(t, p.contentId)).slug));
    expect(slugs).toEqual(['best-crm-for-dentists', 'best-crm-for-dentists-2', 'best-crm-for-dentists-3']);
    // Another workspace's articles do not take slugs away.
    const other = await t.workspace();
    const [foreign] = (await ok<{ planned: Array<{ contentId: string }> }>(t, other, 'POST', '/api/v1/content/plan/commit', { titles: [titles[0]] })).planned;
    expect((await article(t, foreign!.contentId)).slug).toBe('best-crm-for-dentists');
  });

  it('archive_content cancels an update still waiting to be sent, so the live post stays as it was', async () => {
    const ws = await t.workspace();
    const [planned] = (await commit(t, ws, 1)).planned;
    await markWritten(t, planned!.contentId);
    await ok(t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
    await ok(t, ws, 'POST', '/api/v1/content/publish', { contentId: planned!.contentId, confirm: true });
    await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned!.contentId });
    const deliveries = await t.db.selectFrom('deliveries').select(['state', 'error']).where('article_id', '=', planned!.contentId).execute();
    expect(deliveries).toEqual([{ state: 'cancelled', error: 'the article was archived' }]);
    const jobs = await t.db.selectFrom('jobs').select('state').where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'deliver').execute();
    expect(jobs).toEqual([{ state: 'failed' }]);
  });

  describe('list_content', () => {
    it('lists every article by publish slot, archived ones included, with writing state and scores only for written ones', async () => {
      const ws = await t.workspace();
      const { planned } = await commit(t, ws, 4);
      await markWritten(t, planned[1]!.contentId);
      await beingWritten(ws, planned[2]!.contentId);
      await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned[3]!.contentId });
      const other = await t.workspace();
      await commit(t, other, 1, 'Foreign');

      const data = await ok<{ articles: Listed[] }>(t, ws, 'GET', '/api/v1/content');
      expect(data.articles.map((a) => [a.title, a.status, a.writing])).toEqual([
        ['Article 1', 'planned', false],
        ['Article 2', 'draft', false],
        ['Article 3', 'planned', true],
        ['Article 4', 'archived', false],
      ]);
      expect(data.articles[0]).toEqual({
        id: planned[0]!.contentId,
        title: 'Article 1',
        status: 'planned',
        contentType: 'blog_post',
        slug: 'article-1',
        keyword: 'article keyword 1',
        queryId: null,
        wordCount: 0,
        scheduledAt: '2026-11-23T09:00:00.000Z',
        publishedAt: null,
        url: null,
        writing: false,
        writtenAt: null,
        lastWriteError: null,
        liveConfirmedAt: null,
        archivedAt: null,
        healthScore: null,
        citabilityScore: null,
        google: null,
      });
      expect(data.articles[1]!.healthScore).toEqual(expect.any(Number));
      expect(data.articles[1]!.citabilityScore).toEqual(expect.any(Number));
      expect(data.articles[3]!.archivedAt).toBe(iso(t.clock.now()));
      expect((await t.mcpTool(ws.key, 'list_content')).structuredContent).toEqual(data);
    });

    it('orders by scheduledAt after a reschedule', async () => {
      const ws = await t.workspace();
      await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
      const { planned } = await commit(t, ws, 2);
      await ok(t, ws, 'POST', '/api/v1/content/reschedule', { contentId: planned[1]!.contentId, scheduledAt: '2026-11-22T09:00:00Z' });
      const data = await ok<{ articles: Listed[] }>(t, ws, 'GET', '/api/v1/content');
      expect(data.articles.map((a) => a.title)).toEqual(['Article 2', 'Article 1']);
    });
  });
});
