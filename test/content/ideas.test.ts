import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchConsolePeriod } from '../../db/schema.js';
import { scoreIdea } from '../../src/content/ideas.js';
import { PLANS } from '../../src/plans.js';
import { expectBadInput } from '../brand/support.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { insertPublishedArticle } from '../links/support.js';
import { Seeder } from '../visibility/metrics/seed.js';
import { consoleRow } from '../visibility/searchConsole/rows.js';
import { article, commit, iso, ok } from './calendarSupport.js';

const DAY = 86_400_000;

interface Idea {
  id: string;
  queryText: string;
  suggestedTitle: string | null;
  score: number | null;
  basedOn: string[];
  scoreNote: string;
}
interface Ideas {
  ideas: Idea[];
}

const addQuery = (t: TestService, ws: TestWorkspace, text: string) =>
  ok<{ query: { id: string } }>(t, ws, 'POST', '/api/v1/queries', { text }).then((d) => d.query.id);

describe('content ideas', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  describe('get_content_ideas', () => {
    it('lists uncovered, unhidden tracked queries, unscored because nothing has measured them, never with invented numbers', async () => {
      const ws = await t.workspace();
      const open = await addQuery(t, ws, 'crm for dentists');
      await addQuery(t, ws, 'article keyword 1');
      const hidden = await addQuery(t, ws, 'crm for vets');
      await commit(t, ws, 1);
      await ok(t, ws, 'POST', '/api/v1/content/ideas/hide', { queryId: hidden });
      const data = await ok<Ideas & { weights: Record<string, number> }>(t, ws, 'GET', '/api/v1/content/ideas');
      expect(data.ideas).toEqual([
        {
          id: open,
          queryText: 'crm for dentists',
          suggestedTitle: null,
          source: 'user',
          createdAt: iso(t.clock.now()),
          score: null,
          basedOn: [],
          scoreNote: expect.stringContaining('no visibility or rank checks'),
          metrics: { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null },
          rankingPage: null,
          readPage: null,
          articleId: null,
        },
      ]);
      expect(data.weights).toEqual({ citationGap: 0.35, competitorCitations: 0.25, quickWin: 0.25, trending: 0.15 });
      expect((await t.mcpTool(ws.key, 'get_content_ideas')).structuredContent).toEqual(data);
    });

    it('scores from what the checks of the last 30 days measured: citation gap, competitor citations and the Google position', async () => {
      const ws = await t.workspace();
      const seed = new Seeder(t, ws);
      const dentists = await seed.query('crm for dentists');
      t.clock.advance(1000);
      const vets = await seed.query('crm for vets');
      t.clock.advance(1000);
      const farms = await seed.query('crm for farms');
      await seed.competitor('Globex', 'https://globex.example');
      const guide = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/guide', { keyword: 'crm guide' });
      // crm for vets: an answer from before the window, and a failed check: nothing measured.
      await seed.answer(iso(START_TIME - 40 * DAY), 'chatgpt', vets, 'Use a spreadsheet.', ['https://rival.example/']);
      await seed.failure(iso(START_TIME - 2 * DAY), 'chatgpt', vets);
      // crm for dentists: 4 answers; 2 cite sources but not the brand (one of them cites Globex), 1 cites the brand,
      // 1 cites nothing but names Globex. Gap 2/4, competitor 2/4.
      await seed.answer(iso(START_TIME - 3 * DAY), 'chatgpt', dentists, 'Use a spreadsheet.', ['https://rival.example/']);
      await seed.answer(iso(START_TIME - 3 * DAY + 1), 'perplexity', dentists, 'Globex works.', ['https://globex.example/']);
      await seed.answer(iso(START_TIME - 3 * DAY + 2), 'gemini', dentists, 'Acme Analytics works.', ['https://acme.example/guide']);
      await seed.answer(iso(START_TIME - 3 * DAY + 3), 'claude', dentists, 'Globex or a spreadsheet.');
      const rivals = Array.from({ length: 3 }, (_, i) => `https://rival.example/${i}`);
      await seed.rank(iso(START_TIME - DAY), dentists, 'google', [...rivals, 'https://acme.example/guide']);
      await seed.rank(iso(START_TIME - DAY), vets, 'google', rivals);
      t.clock.set(START_TIME);
      await t.db
        .insertInto('search_console_rows')
        .values(consoleRow(ws.workspaceId, 'current', { query: 'crm for dentists', page: 'https://acme.example/dentists', clicks: 5, impressions: 90, position: 6.5 }))
        .execute();

      const data = await ok<{ ideas: Array<Record<string, unknown>> }>(t, ws, 'GET', '/api/v1/content/ideas');
      // 100 x (0.35 x 0.5 + 0.25 x 0.5 + 0.25 x 1) / 0.85: position 4 is the best quick win; trending is not measured:
      // Search Console has no period before the current one to compare with.
      expect(data.ideas[0]).toMatchObject({
        id: dentists,
        score: 65,
        basedOn: ['citationGap', 'competitorCitations', 'quickWin'],
        metrics: { citationGapRate: 0.5, competitorCitationRate: 0.5, trendingScore: null, googlePosition: 4 },
        rankingPage: 'https://acme.example/guide',
        readPage: 'https://acme.example/dentists',
        articleId: guide,
      });
      // Checked, but nothing measured in the window and not in Google's top 30: unscored, never a zero; then the unchecked one.
      expect(data.ideas.slice(1).map((idea) => [idea.id, idea.score, idea.metrics])).toEqual([
        [vets, null, { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null }],
        [farms, null, { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null }],
      ]);

      // Planning the idea keeps the numbers it was chosen by.
      const planned = await ok<{ contentId: string }>(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for dentists' });
      expect(JSON.parse((await article(t, planned.contentId)).idea_metrics!)).toEqual({
        score: 65,
        basedOn: ['citationGap', 'competitorCitations', 'quickWin'],
        metrics: { citationGapRate: 0.5, competitorCitationRate: 0.5, trendingScore: null, googlePosition: 4 },
      });
    });

    it('counts an answer naming several competitors once, and leaves out removed competitors and the brand', async () => {
      const ws = await t.workspace();
      const seed = new Seeder(t, ws);
      const bakers = await seed.query('crm for bakers');
      await seed.competitor('Globex', 'https://globex.example');
      await seed.competitor('Initech', 'https://initech.example');
      const umbrella = await seed.competitor('Umbrella', 'https://umbrella.example');
      await seed.answer(iso(START_TIME - 5 * DAY), 'chatgpt', bakers, 'Globex or Initech.', ['https://globex.example/']);
      await seed.answer(iso(START_TIME - 5 * DAY + 1), 'perplexity', bakers, 'Umbrella works.');
      await seed.answer(iso(START_TIME - 5 * DAY + 2), 'gemini', bakers, 'Acme Analytics works.');
      await seed.answer(iso(START_TIME - 5 * DAY + 3), 'claude', bakers, 'Use a spreadsheet.');
      // Removed after its answer was classified: the mention stays, but it no longer counts as a tracked competitor.
      await t.db.updateTable('competitors').set({ removed_at: START_TIME - DAY }).where('id', '=', umbrella).execute();
      t.clock.set(START_TIME);

      const data = await ok<{ ideas: Array<Record<string, unknown>> }>(t, ws, 'GET', '/api/v1/content/ideas');
      // 1 answer of 4 names a live competitor (two of them); 1 cites a source that is not the brand's.
      expect(data.ideas.map((idea) => [idea.id, idea.metrics])).toEqual([
        [bakers, { citationGapRate: 0.25, competitorCitationRate: 0.25, trendingScore: null, googlePosition: null }],
      ]);
    });

    it('scores trendingScore from the growth of Search Console impressions and clicks, summed across pages, between the two periods', async () => {
      const ws = await t.workspace();
      // Tracked with capitals: matched to Search Console's lower-cased queries by their wording.
      const dentists = await addQuery(t, ws, 'CRM for Dentists');
      const vets = await addQuery(t, ws, 'crm for vets');
      const farms = await addQuery(t, ws, 'crm for farms');
      const bakers = await addQuery(t, ws, 'crm for bakers');
      const row = (period: SearchConsolePeriod, query: string, page: string, clicks: number, impressions: number) =>
        consoleRow(ws.workspaceId, period, { query, page, clicks, impressions, position: 5 });
      await t.db
        .insertInto('search_console_rows')
        .values([
          // crm for dentists: 400 impressions and 15 clicks over two pages, against 200 and 5.
          row('current', 'crm for dentists', 'https://acme.example/dentists', 12, 300),
          row('current', 'crm for dentists', 'https://acme.example/', 3, 100),
          row('previous', 'crm for dentists', 'https://acme.example/dentists', 5, 200),
          // crm for vets: new this period, the earlier one has no data for it.
          row('current', 'crm for vets', 'https://acme.example/vets', 0, 50),
          // crm for farms: searched before, no longer.
          row('previous', 'crm for farms', 'https://acme.example/farms', 4, 80),
          // Untracked: no idea of its own, and no effect on the others.
          row('previous', 'crm for dentists near me', 'https://acme.example/dentists', 90, 900),
        ])
        .execute();

      const data = await ok<{ ideas: Array<Record<string, unknown>> }>(t, ws, 'GET', '/api/v1/content/ideas');
      // ((400 + 20) / (400 + 200 + 40) + (15 + 2) / (15 + 5 + 4)) / 2 = 0.68229...; new: (70 / 90 + 2 / 4) / 2; gone: (20 / 120 + 2 / 8) / 2.
      expect(data.ideas.map((idea) => [idea.id, idea.metrics, idea.score, idea.basedOn])).toEqual([
        [dentists, { citationGapRate: null, competitorCitationRate: null, trendingScore: 0.6823, googlePosition: null }, 68, ['trending']],
        [vets, { citationGapRate: null, competitorCitationRate: null, trendingScore: 0.6389, googlePosition: null }, 64, ['trending']],
        [farms, { citationGapRate: null, competitorCitationRate: null, trendingScore: 0.2083, googlePosition: null }, 21, ['trending']],
        [bakers, { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null }, null, []],
      ]);
      expect(data.ideas[0]).toMatchObject({ scoreNote: 'weighted over trending', readPage: 'https://acme.example/dentists' });
      expect((await t.mcpTool(ws.key, 'get_content_ideas')).structuredContent).toEqual(data);
    });

    it('scores from the signals measured only, and says which', () => {
      expect(scoreIdea({ citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null })).toEqual({
        score: null,
        basedOn: [],
        scoreNote: expect.any(String),
      });
      // Only the citation gap measured: the score is that rate, whatever the other weights.
      expect(scoreIdea({ citationGapRate: 0.6, competitorCitationRate: null, trendingScore: null, googlePosition: null })).toMatchObject({ score: 60, basedOn: ['citationGap'] });
      // Position 4 is the best quick win (value 1); 0.35*0.5 + 0.25*1 over 0.6.
      expect(scoreIdea({ citationGapRate: 0.5, competitorCitationRate: null, trendingScore: null, googlePosition: 4 })).toMatchObject({
        score: Math.round((100 * (0.35 * 0.5 + 0.25)) / 0.6),
        basedOn: ['citationGap', 'quickWin'],
      });
      // Already in the top 3: no quick win left.
      expect(scoreIdea({ citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: 2 }).score).toBe(0);
    });
  });

  describe('hide_content_idea', () => {
    it('hides the idea but keeps the query tracked, listed and counted; hiding again keeps the first time', async () => {
      const ws = await t.workspace();
      const queryId = await addQuery(t, ws, 'crm for dentists');
      const hidden = await ok(t, ws, 'POST', '/api/v1/content/ideas/hide', { queryId });
      expect(hidden).toEqual({ queryId, queryText: 'crm for dentists', hidden: true, hiddenAt: iso(t.clock.now()), stillTracked: true });
      expect((await ok<Ideas>(t, ws, 'GET', '/api/v1/content/ideas')).ideas).toEqual([]);
      const queries = await ok<{ queries: Array<{ id: string; hidden: boolean }>; usage: { used: number } }>(t, ws, 'GET', '/api/v1/queries');
      expect(queries.queries).toEqual([expect.objectContaining({ id: queryId, hidden: true })]);
      expect(queries.usage.used).toBe(1);
      t.clock.advance(60_000);
      expect(await ok(t, ws, 'POST', '/api/v1/content/ideas/hide', { queryId })).toEqual(hidden);
      t.clock.set(START_TIME);
    });

    it('shows a hidden idea again when its query is added again', async () => {
      const ws = await t.workspace();
      const queryId = await addQuery(t, ws, 'crm for dentists');
      await ok(t, ws, 'POST', '/api/v1/content/ideas/hide', { queryId });
      const again = await ok<{ created: boolean; query: { id: string; hidden: boolean } }>(t, ws, 'POST', '/api/v1/queries', { text: 'CRM for Dentists' });
      expect(again).toMatchObject({ created: false, query: { id: queryId, hidden: false } });
      expect((await ok<Ideas>(t, ws, 'GET', '/api/v1/content/ideas')).ideas.map((idea) => idea.id)).toEqual([queryId]);
    });
  });

  describe('plan_content_idea', () => {
    it('plans into the next open slot with a generated title when the idea has none, steered by brand memory, and keeps the title and numbers', async () => {
      const ws = await t.workspace();
      const queryId = await addQuery(t, ws, 'crm for dentists');
      t.writer.reply({ content: { title: '  How dentists choose a CRM  ' } });
      const before = t.writer.requests.length;
      const planned = await ok(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'CRM for dentists' });
      // Saturday 21 November 09:00 now; the default policy publishes Monday, Wednesday and Friday at 09:00 UTC.
      expect(planned).toEqual({ created: 1, contentId: expect.stringMatching(/^art_/), title: 'How dentists choose a CRM', titleGenerated: true, scheduledAt: '2026-11-23T09:00:00.000Z', queryId });
      expect(t.writer.requests.length).toBe(before + 1);
      expect(t.writer.lastPrompt()).toContain('Brand: Acme Analytics');
      expect(t.writer.lastPrompt()).toContain('"CRM for dentists"');
      const row = await article(t, String(planned.contentId));
      expect(row).toMatchObject({ status: 'planned', keyword: 'crm for dentists', query_id: queryId, content_type: 'blog_post', language: 'en' });
      expect(JSON.parse(row.idea_metrics!)).toEqual({
        score: null,
        basedOn: [],
        metrics: { citationGapRate: null, competitorCitationRate: null, trendingScore: null, googlePosition: null },
      });
      const query = await t.db.selectFrom('queries').selectAll().where('id', '=', queryId).executeTakeFirstOrThrow();
      expect(query.suggested_title).toBe('How dentists choose a CRM');
      // Covered now: no longer an idea.
      expect((await ok<Ideas>(t, ws, 'GET', '/api/v1/content/ideas')).ideas).toEqual([]);
    });

    it("uses the idea's own title without asking the model", async () => {
      const ws = await t.workspace();
      const [planned] = (await commit(t, ws, 1, 'Dental CRM guide')).planned;
      await ok(t, ws, 'POST', '/api/v1/content/delete-planned', { contentId: planned!.contentId });
      const idea = (await ok<Ideas>(t, ws, 'GET', '/api/v1/content/ideas')).ideas[0]!;
      expect(idea.suggestedTitle).toBe('Dental CRM guide 1');
      const before = t.writer.requests.length;
      const again = await ok(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: idea.queryText });
      expect(again).toMatchObject({ created: 1, title: 'Dental CRM guide 1', titleGenerated: false, queryId: idea.id });
      expect(t.writer.requests.length).toBe(before);
    });

    it('tracks a new queryText as an idea query, within the plan limit', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      const planned = await ok<{ queryId: string }>(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for vets' });
      const query = await t.db.selectFrom('queries').selectAll().where('id', '=', planned.queryId).executeTakeFirstOrThrow();
      expect(query).toMatchObject({ text: 'crm for vets', source: 'idea' });

      const limit = PLANS.trial.trackedQueries;
      let key = ws.key;
      for (let i = 1; i < limit; i++) {
        if (i % 10 === 0) key = await t.key(ws.workspaceId, ['write:content']);
        expect((await t.rest(key, 'POST', '/api/v1/queries', { text: `query ${i}` })).status).toBe(200);
      }
      const before = await snapshot(t.db);
      const requests = t.writer.requests.length;
      expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for farms' }), 'queryText', `the plan allows ${limit} tracked queries`);
      expect(await snapshot(t.db)).toEqual(before);
      expect(t.writer.requests.length).toBe(requests);
    });

    it('answers created: 0 when the query already has an article', async () => {
      const ws = await t.workspace();
      const { planned } = await commit(t, ws, 1);
      const before = await snapshot(t.db);
      const answer = await ok(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'article keyword 1' });
      expect(answer).toEqual({ created: 0, reason: expect.stringContaining('already planned'), contentId: planned[0]!.contentId });
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('plans a query once when two plans of it race', async () => {
      const ws = await t.workspace();
      const keys = [await t.key(ws.workspaceId, ['write:content']), await t.key(ws.workspaceId, ['write:content'])];
      const answers = await Promise.all(keys.map((key) => t.rest(key, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for opticians' })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => (a.body.data as { created: number }).created).sort()).toEqual([0, 1]);
      const queries = await t.db.selectFrom('queries').select('id').where('workspace_id', '=', ws.workspaceId).execute();
      expect(queries).toHaveLength(1);
    });

    it('answers created: 0 when the calendar is full, without a model call and without changing anything', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      // The trial's 4 a month: 4 November slots left (23, 25, 27, 30) and 4 in December.
      expect((await commit(t, ws, 8)).created).toBe(8);
      const queryId = await addQuery(t, ws, 'crm for dentists');
      const before = await snapshot(t.db);
      const requests = t.writer.requests.length;
      const answer = await ok(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for dentists' });
      expect(answer).toEqual({ created: 0, reason: expect.stringMatching(/^calendar full: no open publish slot before 2027-01-01T00:00:00.000Z/) });
      expect(t.writer.requests.length).toBe(requests);
      expect(await snapshot(t.db)).toEqual(before);
      expect((await ok<Ideas>(t, ws, 'GET', '/api/v1/content/ideas')).ideas.map((i) => i.id)).toEqual([queryId]);
    });
  });
});

describe('content ideas without a writer model', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start({ writer: false });
  });
  afterAll(() => t.close());

  it('refuses to plan an idea that needs a generated title, naming the settings, and changes nothing; an idea with a title still plans', async () => {
    const ws = await t.workspace();
    await addQuery(t, ws, 'crm for dentists');
    const before = await snapshot(t.db);
    const refused = await t.rest(ws.key, 'POST', '/api/v1/content/ideas/plan', { queryText: 'crm for dentists' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('WRITER_BASE_URL and WRITER_MODEL');
    expect(await snapshot(t.db)).toEqual(before);

    const [planned] = (await commit(t, ws, 1, 'Vet CRM')).planned;
    await ok(t, ws, 'POST', '/api/v1/content/delete-planned', { contentId: planned!.contentId });
    expect(await ok(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryText: 'vet crm keyword 1' })).toMatchObject({ created: 1, title: 'Vet CRM 1' });
  });
});
