import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueChecks } from '../../../src/visibility/checks/runs.js';
import type { AnswerEngine } from '../../../src/visibility/engines/engine.js';
import { TestService, type TestWorkspace } from '../../support/harness.js';
import { FakeDataForSeo } from '../../integrations/fakes/dataforseo/serp.js';
import { FakeOpenAi } from '../../integrations/fakes/openai.js';
import { addCompetitor, addQuery, startRun } from './support.js';

const DAY_MS = 86_400_000;

let openai: FakeOpenAi;
let dfs: FakeDataForSeo;
let t: TestService;
beforeAll(async () => {
  openai = await FakeOpenAi.start();
  dfs = await FakeDataForSeo.start();
  t = await TestService.start({
    env: { ENGINE_CHATGPT_BASE_URL: openai.baseUrl, ENGINE_CHATGPT_API_KEY: 'sk-openai', ...dfs.env(), CHECK_RUNS_PER_QUERY: '2' },
  });
});
afterAll(async () => {
  await t.close();
  await openai.close();
  await dfs.close();
});

const unique = (text: string) => `${text} ${Math.random().toString(36).slice(2, 8)}`;

async function runRow(runId: string) {
  return t.db.selectFrom('check_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
}

async function answersOf(runId: string) {
  return t.db.selectFrom('engine_answers').selectAll().where('run_id', '=', runId).orderBy('checked_at').execute();
}

async function mentionsOf(answerId: string) {
  const rows = await t.db.selectFrom('answer_mentions').selectAll().where('answer_id', '=', answerId).execute();
  return Object.fromEntries(rows.map((r) => [r.subject_id, r]));
}

/** The workspace's visibility_daily rows as { engine/subject: counts }. */
async function daily(ws: TestWorkspace) {
  const rows = await t.db.selectFrom('visibility_daily').selectAll().where('workspace_id', '=', ws.workspaceId).execute();
  return Object.fromEntries(
    rows.map((r) => [
      `${r.engine}/${r.subject_id}`,
      { answers: r.answers, withCitations: r.answers_with_citations, cited: r.cited, mentioned: r.mentioned, failed: r.failed, notShown: r.not_shown, positive: r.positive, negative: r.negative, neutral: r.neutral, scoreSum: r.sentiment_score_sum },
    ]),
  );
}

describe('a check run', () => {
  it('asks every tracked query, hidden ones too, on every configured engine, runs-per-query times, plus a Google and a Bing rank check whose pages give the first AI-overview and Copilot run', async () => {
    const ws = await t.workspace();
    const shown = await addQuery(t, ws, unique('best crm for agencies'));
    const hidden = await addQuery(t, ws, unique('crm with invoicing'));
    expect((await t.rest(ws.key, 'POST', '/api/v1/content/ideas/hide', { queryId: hidden })).status).toBe(200);
    openai.reset();
    dfs.reset();

    // The weekly run itself, so that the sweep of the drain below starts no other.
    const run = await startRun(t, ws, 'schedule');
    // chatgpt (its own API), google_ai_overview and copilot (the SERP provider's Google and Bing pages); the others have no settings.
    expect(run).toEqual({ runId: expect.any(String), planned: 2 * (3 * 2 + 2), engines: ['chatgpt', 'google_ai_overview', 'copilot'], notConfigured: ['perplexity', 'gemini', 'claude'], rankChecks: true });
    await t.jobs.drain();
    // Per query and search engine: one page for the rank check and the first run, one more for the second run (10 without sharing).
    expect(dfs.requests.map((r) => r.path.split('/')[3]).sort()).toEqual(['bing', 'bing', 'bing', 'bing', 'google', 'google', 'google', 'google']);

    expect(openai.requests).toHaveLength(4);
    const answers = await answersOf(run.runId);
    const asked = answers.map((a) => `${a.engine}:${a.query_id === shown ? 'shown' : 'hidden'}:${a.run_index}`).sort();
    expect(asked).toEqual([
      'chatgpt:hidden:1',
      'chatgpt:hidden:2',
      'chatgpt:shown:1',
      'chatgpt:shown:2',
      'copilot:hidden:1',
      'copilot:hidden:2',
      'copilot:shown:1',
      'copilot:shown:2',
      'google_ai_overview:hidden:1',
      'google_ai_overview:hidden:2',
      'google_ai_overview:shown:1',
      'google_ai_overview:shown:2',
    ]);
    const ranks = await t.db.selectFrom('rank_checks').select(['query_id', 'search_engine']).where('run_id', '=', run.runId).execute();
    expect(ranks).toHaveLength(4);
    const rankIds = new Set((await t.db.selectFrom('rank_checks').select('id').where('run_id', '=', run.runId).execute()).map((r) => r.id));
    for (const answer of answers.filter((a) => a.engine !== 'chatgpt')) {
      if (answer.run_index === 1) expect(rankIds.has(answer.rank_check_id!)).toBe(true);
      else expect(answer.rank_check_id).toBeNull();
    }
    expect(await runRow(run.runId)).toMatchObject({ state: 'done', planned: 16, completed: 16, failed: 0, finished_at: t.clock.now(), trigger: 'schedule' });
    // Engines without settings are never asked and leave no row: not configured is not `none`.
    expect(answers.filter((a) => !['chatgpt', 'google_ai_overview', 'copilot'].includes(a.engine))).toEqual([]);

    const jobs = await t.rest(ws.key, 'GET', '/api/v1/jobs', { kind: 'engine_check', limit: 50 });
    expect((jobs.body.data as { jobs: Array<{ state: string; subjectId: string }> }).jobs.map((j) => j.state)).toEqual(Array(8).fill('done'));
  });

  it('classifies each answer for the brand and every competitor, reads the sentiment, and the daily aggregates equal the answers', async () => {
    const ws = await t.workspace();
    const rivalId = await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    const text = unique('best analytics tool');
    const queryId = await addQuery(t, ws, text);
    openai.reset();
    openai.answer(
      { text: 'Rival is the leader. Acme Analytics follows closely.', citations: [{ url: 'https://rival.example/pricing' }, { url: 'https://news.example/review' }] },
      { text: 'Acme Analytics is great; see acme.example.', citations: [{ url: 'https://blog.acme.example/post' }] },
    );
    dfs.serp('google', text, {
      organic: [{ url: 'https://other.example/a' }, { url: 'https://www.acme.example/crm' }, { url: 'https://blog.acme.example/b' }],
      aiOverview: { markdown: 'Tools such as Acme Analytics help.', references: [{ url: 'https://www.acme.example/' }] },
    });
    dfs.serp('bing', text, { organic: [{ url: 'https://rival.example/' }] });
    t.writer.answer('mention_sentiment', (request) => {
      const prompt = request.messages.map((m) => m.content).join('\n');
      return prompt.includes('Company or product: Rival') ? { label: 'negative', score: 20 } : { label: 'positive', score: 90 };
    });

    const run = await startRun(t, ws);
    await t.jobs.drain();
    t.writer.reset();
    // Every sentiment reading is on the writer-usage ledger, and adds up to what the check jobs counted.
    const booked = await t.db.selectFrom('writer_usage').select(['purpose', 'prompt_tokens']).where('workspace_id', '=', ws.workspaceId).execute();
    // Rank checks read the first AI-overview run's sentiment too.
    const checkJobs = await t.db.selectFrom('jobs').select('prompt_tokens').where('workspace_id', '=', ws.workspaceId).where('kind', 'in', ['engine_check', 'rank_check']).execute();
    expect(new Set(booked.map((row) => row.purpose))).toEqual(new Set(['sentiment']));
    expect(booked.reduce((sum, row) => sum + row.prompt_tokens, 0)).toBe(checkJobs.reduce((sum, job) => sum + job.prompt_tokens, 0));

    const answers = await answersOf(run.runId);
    const chatgpt = answers.filter((a) => a.engine === 'chatgpt');
    const first = chatgpt.find((a) => a.answer_text!.startsWith('Rival'))!;
    const second = chatgpt.find((a) => a.answer_text!.startsWith('Acme'))!;
    expect(first).toMatchObject({ brand_result: 'mentioned', model: 'gpt-4.1-mini-2025-04-14', error_class: null, query_id: queryId });
    expect(JSON.parse(first.citations)).toEqual([
      { url: 'https://rival.example/pricing', domain: 'rival.example', title: 'rival.example', rank: 1 },
      { url: 'https://news.example/review', domain: 'news.example', title: 'news.example', rank: 2 },
    ]);
    expect(await mentionsOf(first.id)).toMatchObject({
      brand: { result: 'mentioned', position: 2, sentiment: 'positive', sentiment_score: 90, passage: 'Rival is the leader. Acme Analytics follows closely.' },
      [rivalId]: { result: 'cited', position: 1, sentiment: 'negative', sentiment_score: 20 },
    });
    expect(second.brand_result).toBe('cited');
    expect(await mentionsOf(second.id)).toMatchObject({ brand: { result: 'cited', position: 1 }, [rivalId]: { result: 'none', position: null, sentiment: null, passage: null } });
    for (const overview of answers.filter((a) => a.engine === 'google_ai_overview')) expect(overview.brand_result).toBe('cited');
    // Bing's page showed no Copilot answer: not shown, for the brand and the competitor alike, neither none nor failed.
    for (const copilot of answers.filter((a) => a.engine === 'copilot')) {
      expect(copilot).toMatchObject({ brand_result: 'not_shown', error_class: null, answer_text: '' });
      expect(await mentionsOf(copilot.id)).toMatchObject({ brand: { result: 'not_shown' }, [rivalId]: { result: 'not_shown' } });
    }

    expect(await daily(ws)).toEqual({
      'chatgpt/brand': { answers: 2, withCitations: 2, cited: 1, mentioned: 1, failed: 0, notShown: 0, positive: 2, negative: 0, neutral: 0, scoreSum: 180 },
      [`chatgpt/${rivalId}`]: { answers: 2, withCitations: 2, cited: 1, mentioned: 0, failed: 0, notShown: 0, positive: 0, negative: 1, neutral: 0, scoreSum: 20 },
      'google_ai_overview/brand': { answers: 2, withCitations: 2, cited: 2, mentioned: 0, failed: 0, notShown: 0, positive: 2, negative: 0, neutral: 0, scoreSum: 180 },
      [`google_ai_overview/${rivalId}`]: { answers: 2, withCitations: 2, cited: 0, mentioned: 0, failed: 0, notShown: 0, positive: 0, negative: 0, neutral: 0, scoreSum: 0 },
      'copilot/brand': { answers: 0, withCitations: 0, cited: 0, mentioned: 0, failed: 0, notShown: 2, positive: 0, negative: 0, neutral: 0, scoreSum: 0 },
      [`copilot/${rivalId}`]: { answers: 0, withCitations: 0, cited: 0, mentioned: 0, failed: 0, notShown: 2, positive: 0, negative: 0, neutral: 0, scoreSum: 0 },
    });
    // The same numbers again, counted from the stored answers themselves.
    const mentions = await t.db
      .selectFrom('answer_mentions')
      .innerJoin('engine_answers', 'engine_answers.id', 'answer_mentions.answer_id')
      .select(['engine_answers.engine', 'answer_mentions.subject_id', 'answer_mentions.result', 'answer_mentions.sentiment_score'])
      .where('engine_answers.workspace_id', '=', ws.workspaceId)
      .execute();
    for (const [key, counts] of Object.entries(await daily(ws))) {
      const rows = mentions.filter((m) => `${m.engine}/${m.subject_id}` === key);
      expect({ key, cited: rows.filter((r) => r.result === 'cited').length, mentioned: rows.filter((r) => r.result === 'mentioned').length, scoreSum: rows.reduce((s, r) => s + (r.sentiment_score ?? 0), 0) }).toEqual({
        key,
        cited: counts.cited,
        mentioned: counts.mentioned,
        scoreSum: counts.scoreSum,
      });
    }
    const domains = await t.db.selectFrom('cited_domains_daily').select(['engine', 'domain', 'answers']).where('workspace_id', '=', ws.workspaceId).orderBy('engine').orderBy('domain').execute();
    expect(domains).toEqual([
      { engine: 'chatgpt', domain: 'blog.acme.example', answers: 1 },
      { engine: 'chatgpt', domain: 'news.example', answers: 1 },
      { engine: 'chatgpt', domain: 'rival.example', answers: 1 },
      { engine: 'google_ai_overview', domain: 'acme.example', answers: 2 },
    ]);

    const ranks = await t.db.selectFrom('rank_checks').selectAll().where('run_id', '=', run.runId).orderBy('search_engine').execute();
    expect(ranks.map(({ search_engine, position, url, ai_overview_shown, ai_overview_cites_us, error_class }) => ({ search_engine, position, url, ai_overview_shown, ai_overview_cites_us, error_class }))).toEqual([
      { search_engine: 'bing', position: null, url: null, ai_overview_shown: null, ai_overview_cites_us: null, error_class: null },
      { search_engine: 'google', position: 2, url: 'https://www.acme.example/crm', ai_overview_shown: 1, ai_overview_cites_us: 1, error_class: null },
    ]);
    expect(JSON.parse(ranks[1]!.results)).toHaveLength(3);
  });

  it('records an engine error as failed for the brand and every competitor, never none, and the run still finishes', async () => {
    const ws = await t.workspace();
    const rivalId = await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    await addQuery(t, ws, unique('crm pricing'));
    openai.reset();
    // A 400 is the caller's fault at the provider: not retried.
    openai.reply({ status: 400, body: { error: { message: 'Invalid model', type: 'invalid_request_error' } } });
    const services = t.service.services;
    const run = await startRun(t, ws, 'manual', { ...services, engines: { chatgpt: services.engines.chatgpt! }, serp: undefined, checkRunsPerQuery: 1 });
    await t.jobs.drain();

    const [answer] = await answersOf(run.runId);
    expect(answer).toMatchObject({ engine: 'chatgpt', brand_result: 'failed', error_class: 'provider_error', answer_text: null, model: null, citations: '[]' });
    expect(Object.values(await mentionsOf(answer!.id)).map((m) => [m.subject_id, m.result])).toEqual(
      expect.arrayContaining([
        ['brand', 'failed'],
        [rivalId, 'failed'],
      ]),
    );
    expect(await daily(ws)).toMatchObject({
      'chatgpt/brand': { answers: 0, failed: 1, cited: 0, mentioned: 0 },
      [`chatgpt/${rivalId}`]: { answers: 0, failed: 1 },
    });
    expect(await runRow(run.runId)).toMatchObject({ state: 'done', planned: 1, completed: 0, failed: 1 });
    const listed = await t.rest(ws.key, 'GET', '/api/v1/citations', {});
    expect((listed.body.data as { checks: unknown[] }).checks).toEqual([expect.objectContaining({ result: 'failed', cited: false, errorClass: 'provider_error' })]);
  });

  it('records a check of an engine that lost its settings after the run was planned as failed: not_configured, without asking anything', async () => {
    const ws = await t.workspace();
    await addQuery(t, ws, unique('crm for dentists'));
    const asked: string[] = [];
    const gone: AnswerEngine = {
      name: 'claude',
      ask: async (query) => {
        asked.push(query);
        throw new Error('never asked');
      },
    };
    const services = t.service.services;
    const run = await startRun(t, ws, 'manual', { ...services, engines: { claude: gone }, serp: undefined, checkRunsPerQuery: 1 });
    await t.jobs.drain();
    expect(asked).toEqual([]);
    expect(await answersOf(run.runId)).toEqual([expect.objectContaining({ engine: 'claude', brand_result: 'failed', error_class: 'not_configured' })]);
  });

  it('records a failed rank check with its class and keeps the other search engine', async () => {
    const ws = await t.workspace();
    const text = unique('crm for plumbers');
    await addQuery(t, ws, text);
    dfs.serp('google', text, { taskError: { code: 40501, message: "Invalid Field: 'keyword'." } });
    dfs.serp('bing', text, { organic: [{ url: 'https://x.example/' }, { url: 'https://acme.example/plumbers' }] });
    const services = t.service.services;
    const run = await startRun(t, ws, 'manual', { ...services, engines: {} });
    await t.jobs.drain();
    const ranks = await t.db.selectFrom('rank_checks').selectAll().where('run_id', '=', run.runId).orderBy('search_engine').execute();
    expect(ranks).toMatchObject([
      { search_engine: 'bing', position: 2, url: 'https://acme.example/plumbers', error_class: null },
      { search_engine: 'google', position: null, error_class: expect.any(String), ai_overview_shown: null, results: '[]' },
    ]);
    expect(await runRow(run.runId)).toMatchObject({ state: 'done', planned: 2, completed: 1, failed: 1 });
  });
});

describe('without a writer model', () => {
  it('classifies answers and leaves the sentiment out', async () => {
    const fake = await FakeOpenAi.start();
    const plain = await TestService.start({ writer: false, env: { ENGINE_CHATGPT_BASE_URL: fake.baseUrl } });
    try {
      const ws = await plain.workspace();
      await addQuery(plain, ws, 'best crm');
      fake.answerEvery(() => ({ text: 'Acme Analytics is fine.' }));
      const run = await startRun(plain, ws);
      await plain.jobs.drain();
      const mention = await plain.db
        .selectFrom('answer_mentions')
        .innerJoin('engine_answers', 'engine_answers.id', 'answer_mentions.answer_id')
        .selectAll('answer_mentions')
        .where('engine_answers.run_id', '=', run.runId)
        .executeTakeFirstOrThrow();
      expect(mention).toMatchObject({ subject_id: 'brand', result: 'mentioned', sentiment: null, sentiment_score: null, passage: 'Acme Analytics is fine.' });
    } finally {
      await plain.close();
      await fake.close();
    }
  });
});

describe('the weekly schedule', () => {
  it('starts a run for a workspace with tracked queries, again once its last run is 7 days old, and one after a brand rename', async () => {
    const ws = await t.workspace();
    const runs = () => t.db.selectFrom('check_runs').select(['trigger', 'created_at']).where('workspace_id', '=', ws.workspaceId).orderBy('created_at').execute();
    t.clock.advance(60_000);
    await t.jobs.drain();
    expect(await runs()).toEqual([]);

    await addQuery(t, ws, unique('crm for bakeries'));
    t.clock.advance(60_000);
    await t.jobs.drain();
    const firstAt = t.clock.now();
    expect(await runs()).toEqual([{ trigger: 'schedule', created_at: firstAt }]);

    t.clock.advance(7 * DAY_MS - 60_000);
    await t.jobs.drain();
    expect(await runs()).toHaveLength(1);
    t.clock.advance(60_000);
    await t.jobs.drain();
    expect(await runs()).toEqual([
      { trigger: 'schedule', created_at: firstAt },
      { trigger: 'schedule', created_at: firstAt + 7 * DAY_MS },
    ]);

    // A rename asks for the brand-mention search: a run with the new name at the next sweep, once.
    t.clock.advance(1000);
    expect((await t.rest(ws.key, 'POST', '/api/v1/brand', { name: 'Acme Two' })).status).toBe(200);
    t.clock.advance(60_000);
    await t.jobs.drain();
    t.clock.advance(60_000);
    await t.jobs.drain();
    expect((await runs()).map((r) => r.trigger)).toEqual(['schedule', 'schedule', 'manual']);
  });
});

describe('the weekly schedule with Search Console configured', () => {
  it('queues the Search Analytics sync of a connected workspace with its weekly run', async () => {
    const service = await TestService.start({ env: { ENGINE_CHATGPT_BASE_URL: openai.baseUrl, GSC_CLIENT_ID: 'client', GSC_CLIENT_SECRET: 'secret' } });
    try {
      const connected = await service.workspace();
      const unconnected = await service.workspace();
      for (const ws of [connected, unconnected]) await addQuery(service, ws, 'best crm');
      await service.db
        .insertInto('search_console_connections')
        .values({ workspace_id: connected.workspaceId, property: 'sc-domain:acme.example', refresh_token: 'rt', state_hash: null, state_expires_at: null, connected_at: service.clock.now(), last_sync_at: null, last_error: null })
        .execute();
      // Called directly rather than through the worker, so the queued jobs stay queued.
      const { started } = await runDueChecks(service.db, service.clock, service.service.services);
      expect(started).toHaveLength(2);
      const syncs = await service.db.selectFrom('jobs').select('workspace_id').where('kind', '=', 'search_console_sync').execute();
      expect(syncs).toEqual([{ workspace_id: connected.workspaceId }]);
    } finally {
      await service.close();
    }
  });
});
