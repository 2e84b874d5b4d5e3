import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as latestChecksMigration from '../../../db/migrations/2026_11_25_0014_latest_checks.js';
import * as reportOrderMigration from '../../../db/migrations/2026_11_26_0015_report_order.js';
import { backfillCitedPages } from '../../../db/migrations/2026_11_26_0021_counter.js';
import type { EngineName, MentionResult } from '../../../db/schema.js';
import { utcDay } from '../../../src/shared/time.js';
import { recordEngineAnswer, recordRankCheck } from '../../../src/visibility/checks/record.js';
import { insertCheckRun } from '../../../src/visibility/checks/runs.js';
import { ENGINE_NAMES, normaliseCitations } from '../../../src/visibility/engines/engine.js';
import { pageKey } from '../../../src/visibility/rankings/pages.js';
import type { visibilityScoreReport } from '../../../tools/visibility/outputs.js';
import { TestService, START_TIME, type TestWorkspace } from '../../support/harness.js';
import { addCompetitor, addQuery } from './support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

/** What an answer says of the brand, and how it is recorded. */
type Outcome = 'cited' | 'mentioned' | 'none' | 'rival' | 'failed' | 'not_shown';

function answerFor(outcome: Outcome) {
  switch (outcome) {
    case 'failed':
      return null;
    case 'not_shown':
      return { text: '', citations: [], model: 'm', latencyMs: 1, notShown: true };
    case 'cited':
      // Two spellings of one page: it counts once for the answer.
      return {
        text: 'See the guide.',
        citations: normaliseCitations([{ url: 'https://acme.example/guide' }, { url: 'https://www.acme.example/guide/' }, { url: 'https://docs.acme.example/start' }]),
        model: 'm',
        latencyMs: 1,
      };
    case 'mentioned':
      return { text: 'Acme Analytics works.', citations: normaliseCitations([{ url: 'https://wiki.example/a' }]), model: 'm', latencyMs: 1 };
    case 'rival':
      return { text: 'Rival is best.', citations: normaliseCitations([{ url: 'https://rival.example/' }]), model: 'm', latencyMs: 1 };
    case 'none':
      return { text: 'Use a spreadsheet.', citations: [], model: 'm', latencyMs: 1 };
  }
}

async function record(ws: TestWorkspace, runId: string, queryId: string, engine: EngineName, runIndex: number, outcome: Outcome) {
  return recordEngineAnswer(t.db, t.clock, {
    workspaceId: ws.workspaceId,
    runId,
    queryId,
    engine,
    runIndex,
    answer: answerFor(outcome),
    error: outcome === 'failed' ? { errorClass: 'timeout', message: 'no answer' } : null,
  });
}

/** visibility_daily and agreement_daily as a full recomputation from the stored answers computes them. */
async function recomputed(ws: TestWorkspace) {
  const mentions = await t.db
    .selectFrom('answer_mentions as m')
    .innerJoin('engine_answers as a', 'a.id', 'm.answer_id')
    .select(['a.engine', 'a.checked_at', 'a.citations', 'm.subject_id', 'm.result'])
    .where('a.workspace_id', '=', ws.workspaceId)
    .execute();
  const daily = new Map<string, { answers: number; answers_with_citations: number; cited: number; mentioned: number; failed: number; not_shown: number }>();
  for (const m of mentions) {
    const key = `${utcDay(Number(m.checked_at))}/${m.engine}/${m.subject_id}`;
    const row = daily.get(key) ?? { answers: 0, answers_with_citations: 0, cited: 0, mentioned: 0, failed: 0, not_shown: 0 };
    const given = m.result !== 'failed' && m.result !== 'not_shown';
    row.answers += given ? 1 : 0;
    row.answers_with_citations += given && m.citations !== '[]' ? 1 : 0;
    row.cited += m.result === 'cited' ? 1 : 0;
    row.mentioned += m.result === 'mentioned' ? 1 : 0;
    row.failed += m.result === 'failed' ? 1 : 0;
    row.not_shown += m.result === 'not_shown' ? 1 : 0;
    daily.set(key, row);
  }
  const answers = await t.db.selectFrom('engine_answers').select(['run_id', 'query_id', 'engine', 'brand_result', 'checked_at']).where('workspace_id', '=', ws.workspaceId).execute();
  const cells = new Map<string, { engine: EngineName; first: number; results: MentionResult[] }>();
  for (const a of answers.filter((a) => ['cited', 'mentioned', 'none'].includes(a.brand_result))) {
    const key = `${a.run_id}/${a.query_id}/${a.engine}`;
    const cell = cells.get(key) ?? { engine: a.engine, first: Number(a.checked_at), results: [] };
    cell.first = Math.min(cell.first, Number(a.checked_at));
    cell.results.push(a.brand_result);
    cells.set(key, cell);
  }
  const agreement = new Map<string, { cells: number; agreeing: number }>();
  for (const cell of [...cells.values()].filter((c) => c.results.length >= 2)) {
    const key = `${utcDay(cell.first)}/${cell.engine}`;
    const row = agreement.get(key) ?? { cells: 0, agreeing: 0 };
    row.cells++;
    row.agreeing += cell.results.every((r) => r === cell.results[0]) ? 1 : 0;
    agreement.set(key, row);
  }
  const citedPages = new Map<string, { answers: number }>();
  for (const a of await t.db.selectFrom('engine_answers').select(['engine', 'checked_at', 'citations']).where('workspace_id', '=', ws.workspaceId).execute()) {
    const pages = new Set((JSON.parse(a.citations) as Array<{ url: string; domain: string }>).filter((c) => c.domain.endsWith('acme.example')).map((c) => pageKey(c.url)));
    for (const page of pages) {
      const key = `${utcDay(Number(a.checked_at))}/${a.engine}/${page}`;
      citedPages.set(key, { answers: (citedPages.get(key)?.answers ?? 0) + 1 });
    }
  }
  return { daily: Object.fromEntries(daily), agreement: Object.fromEntries(agreement), citedPages: Object.fromEntries(citedPages), ...(await recomputedLatest(ws)) };
}

const STRENGTH = ['failed', 'not_shown', 'none', 'mentioned', 'cited'];

/** engine_latest and rank_latest as a search of every stored check finds them. */
async function recomputedLatest(ws: TestWorkspace) {
  const answers = await t.db
    .selectFrom('engine_answers')
    .select(['run_id', 'query_id', 'engine', 'brand_result', 'checked_at'])
    .where('workspace_id', '=', ws.workspaceId)
    .orderBy('checked_at', 'desc')
    .execute();
  const engines: Record<string, { run_id: string; result: string; checked_at: number }> = {};
  for (const a of answers) {
    const key = `${a.query_id}/${a.engine}`;
    const latest = (engines[key] ??= { run_id: a.run_id, result: a.brand_result, checked_at: Number(a.checked_at) });
    if (latest.run_id === a.run_id && STRENGTH.indexOf(a.brand_result) > STRENGTH.indexOf(latest.result)) latest.result = a.brand_result;
  }
  const checks = await t.db
    .selectFrom('rank_checks')
    .select(['query_id', 'search_engine', 'position', 'url', 'ai_overview_shown', 'ai_overview_cites_us', 'checked_at'])
    .where('workspace_id', '=', ws.workspaceId)
    .where('error_class', 'is', null)
    .orderBy('checked_at', 'desc')
    .execute();
  const ranks: Record<string, { position: number | null; url: string | null; checked_at: number; overview_checks: number[][] }> = {};
  for (const c of checks) {
    const latest = (ranks[`${c.query_id}/${c.search_engine}`] ??= { position: c.position, url: c.url, checked_at: Number(c.checked_at), overview_checks: [] });
    if (c.ai_overview_shown !== null && latest.overview_checks.length < 16) latest.overview_checks.push([Number(c.checked_at), c.ai_overview_shown, c.ai_overview_cites_us!]);
  }
  const queries: Record<string, { named: number; answered: number; google_checked: number; google_position: number | null; google_checked_at: number | null }> = {};
  const tracked = await t.db.selectFrom('queries').select('id').where('workspace_id', '=', ws.workspaceId).execute();
  for (const { id } of tracked) queries[id] = { named: 0, answered: 0, google_checked: 0, google_position: null, google_checked_at: null };
  const query = (queryId: string) => queries[queryId]!;
  for (const [key, latest] of Object.entries(engines)) {
    const [queryId, engine] = key.split('/') as [string, EngineName];
    const bit = 1 << ENGINE_NAMES.indexOf(engine);
    if (['cited', 'mentioned'].includes(latest.result)) query(queryId).named |= bit;
    if (latest.result !== 'failed') query(queryId).answered |= bit;
  }
  for (const [key, latest] of Object.entries(ranks)) {
    const [queryId, searchEngine] = key.split('/') as [string, string];
    if (searchEngine === 'google') Object.assign(query(queryId), { google_checked: 1, google_position: latest.position, google_checked_at: latest.checked_at });
  }
  return { engines, ranks, queries };
}

async function stored(ws: TestWorkspace) {
  const daily = await t.db
    .selectFrom('visibility_daily')
    .select(['day', 'engine', 'subject_id', 'answers', 'answers_with_citations', 'cited', 'mentioned', 'failed', 'not_shown'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  const agreement = await t.db.selectFrom('agreement_daily').select(['day', 'engine', 'cells', 'agreeing']).where('workspace_id', '=', ws.workspaceId).execute();
  const ranks = await t.db
    .selectFrom('rank_latest')
    .select(['query_id', 'search_engine', 'position', 'url', 'checked_at', 'overview_checks'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  const queries = await t.db
    .selectFrom('query_latest')
    .select(['query_id', 'named', 'answered', 'google_checked', 'google_position', 'google_checked_at', 'engine_checks'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  const engines = queries.flatMap(({ query_id, engine_checks }) =>
    Object.entries(JSON.parse(engine_checks) as Record<string, { run: string; result: string; at: number }>).map(([engine, check]) => [
      `${query_id}/${engine}`,
      { run_id: check.run, result: check.result, checked_at: check.at },
    ]),
  );
  const citedPages = await t.db.selectFrom('cited_pages_daily').select(['day', 'engine', 'page_key', 'answers']).where('workspace_id', '=', ws.workspaceId).execute();
  return {
    citedPages: Object.fromEntries(citedPages.map(({ day, engine, page_key, answers }) => [`${Number(day)}/${engine}/${page_key}`, { answers }])),
    queries: Object.fromEntries(
      queries.map(({ query_id, engine_checks: _engines, google_checked_at, ...latest }) => [query_id, { ...latest, google_checked_at: google_checked_at === null ? null : Number(google_checked_at) }]),
    ),
    engines: Object.fromEntries(engines),
    ranks: Object.fromEntries(
      ranks.map(({ query_id, search_engine, checked_at, overview_checks, ...latest }) => [
        `${query_id}/${search_engine}`,
        { ...latest, checked_at: Number(checked_at), overview_checks: JSON.parse(overview_checks) as number[][] },
      ]),
    ),
    daily: Object.fromEntries(daily.map(({ day, engine, subject_id, ...counts }) => [`${day}/${engine}/${subject_id}`, counts])),
    agreement: Object.fromEntries(agreement.filter((a) => a.cells > 0).map(({ day, engine, ...counts }) => [`${day}/${engine}`, counts])),
  };
}

describe('pre-aggregates written with each answer', () => {
  it('count run-to-run agreement: a cell joins at its second read answer, and stops agreeing when a later run differs', async () => {
    const ws = await t.workspace();
    const q = await addQuery(t, ws, 'best analytics');
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'schedule', engines: ['chatgpt', 'perplexity'], runsPerQuery: 3, planned: 100 });
    await record(ws, runId, q, 'chatgpt', 1, 'mentioned');
    expect((await stored(ws)).agreement).toEqual({});
    await record(ws, runId, q, 'chatgpt', 2, 'mentioned');
    const day = utcDay(t.clock.now());
    expect((await stored(ws)).agreement).toEqual({ [`${day}/chatgpt`]: { cells: 1, agreeing: 1 } });
    await record(ws, runId, q, 'chatgpt', 3, 'cited');
    expect((await stored(ws)).agreement).toEqual({ [`${day}/chatgpt`]: { cells: 1, agreeing: 0 } });
    // A failure and a page without an answer have nothing to agree on.
    await record(ws, runId, q, 'perplexity', 1, 'none');
    await record(ws, runId, q, 'perplexity', 2, 'failed');
    expect((await stored(ws)).agreement).toEqual({ [`${day}/chatgpt`]: { cells: 1, agreeing: 0 } });

    const score = (await t.rest(ws.key, 'GET', '/api/v1/visibility/score', { days: '7' })).body.data as z.output<typeof visibilityScoreReport>;
    expect(score.agreement).toMatchObject({ rate: 0, count: 0, of: 1 });
    expect(score.byEngine.find((e: { engine: string }) => e.engine === 'chatgpt')!.agreement).toMatchObject({ count: 0, of: 1 });
    expect(score.byEngine.find((e: { engine: string }) => e.engine === 'perplexity')!.agreement).toMatchObject({ rate: null, of: 0 });
  });

  it('equal a full recomputation from the stored answers after a long mixed sequence', async () => {
    const ws = await t.workspace();
    await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    const queries = [await addQuery(t, ws, 'crm one'), await addQuery(t, ws, 'crm two'), await addQuery(t, ws, 'crm three')];
    const engines: EngineName[] = ['chatgpt', 'gemini', 'google_ai_overview', 'copilot'];
    const outcomes: Outcome[] = ['cited', 'mentioned', 'none', 'rival', 'failed', 'not_shown'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      // The high bits: the low bits of this generator repeat with a short period.
      return Math.floor(seed / 65_536) % n;
    };
    t.clock.set(START_TIME);
    for (let run = 0; run < 6; run++) {
      const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'schedule', engines, runsPerQuery: 3, planned: 1000 });
      for (const queryId of queries) {
        for (const engine of engines) {
          for (let runIndex = 1; runIndex <= 3; runIndex++) {
            const outcome = outcomes[next(outcomes.length)]!;
            await record(ws, runId, queryId, engine, runIndex, engine.startsWith('google') || engine === 'copilot' ? outcome : outcome === 'not_shown' ? 'none' : outcome);
            // Cells straddle midnight now and then: they stay on the day of their first answer.
            t.clock.advance(next(3) === 0 ? 6 * 3_600_000 : 60_000);
          }
        }
        for (const searchEngine of ['google', 'bing'] as const) {
          const failed = next(4) === 0;
          const ranked = next(2) === 0;
          const organic = [{ position: 1, url: 'https://other.example/a', domain: 'other.example', title: null }];
          if (ranked) organic.push({ position: 2 + next(20), url: 'https://acme.example/guide', domain: 'acme.example', title: null });
          const shown = next(2) === 0;
          await recordRankCheck(t.db, t.clock, {
            workspaceId: ws.workspaceId,
            runId,
            queryId,
            searchEngine,
            organic: failed ? null : organic,
            aiOverview: searchEngine === 'google' ? { shown, text: '', references: shown && next(2) === 0 ? normaliseCitations([{ url: 'https://acme.example/guide' }]) : [] } : null,
            error: failed ? { errorClass: 'provider_error', message: 'failed' } : null,
          });
          t.clock.advance(60_000);
        }
      }
      t.clock.advance(2 * 86_400_000);
    }
    // An answer of an older run that arrives late makes that run the query's latest check on its engine.
    const [firstRun] = await t.db.selectFrom('check_runs').select('id').where('workspace_id', '=', ws.workspaceId).orderBy('created_at').limit(1).execute();
    await record(ws, firstRun!.id, queries[0]!, 'chatgpt', 4, 'mentioned');
    const expected = await recomputed(ws);
    expect(Object.keys(expected.engines)).toHaveLength(12);
    expect(Object.keys(expected.ranks).length).toBeGreaterThan(3);
    expect(Object.keys(expected.agreement).length).toBeGreaterThan(3);
    expect(await stored(ws)).toEqual(expected);

    // Migrations 0014 and 0015 fill the latest-check tables from the checks stored before them, to the same rows.
    const migrating = t.db as unknown as Kysely<unknown>;
    await reportOrderMigration.down(migrating);
    await latestChecksMigration.down(migrating);
    await latestChecksMigration.up(migrating);
    await reportOrderMigration.up(migrating);
    expect(await stored(ws)).toEqual(expected);
    // Migration 0021 counts the answers stored before it into cited_pages_daily the same way.
    expect(Object.keys(expected.citedPages).length).toBeGreaterThan(3);
    await t.db.deleteFrom('cited_pages_daily').execute();
    await backfillCitedPages(migrating);
    expect(await stored(ws)).toEqual(expected);
  });
});

describe('the trend', () => {
  it('flags a change between points, and week over week, only when their intervals do not overlap', async () => {
    const ws = await t.workspace();
    const q = await addQuery(t, ws, 'crm steady');
    const day = (n: number) => START_TIME - n * 86_400_000;
    const runs = [
      { at: day(10), outcomes: Array<Outcome>(20).fill('none') },
      { at: day(3), outcomes: Array<Outcome>(20).fill('none') },
      { at: day(2), outcomes: [...Array<Outcome>(2).fill('mentioned'), ...Array<Outcome>(18).fill('none')] },
      { at: day(1), outcomes: [...Array<Outcome>(18).fill('mentioned'), ...Array<Outcome>(2).fill('none')] },
    ];
    for (const { at, outcomes } of runs) {
      t.clock.set(at);
      const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'schedule', engines: ['chatgpt'], runsPerQuery: 1, planned: 100 });
      for (const [i, outcome] of outcomes.entries()) await record(ws, runId, q, 'chatgpt', i + 1, outcome);
    }
    t.clock.set(START_TIME);
    const trend = (await t.rest(ws.key, 'GET', '/api/v1/visibility/trend', { days: '7' })).body.data as { points: Array<{ mentionRateChange: string | null }> };
    // 0 of 20 then 2 of 20: the intervals overlap (steady); 2 of 20 then 18 of 20: they do not (up).
    expect(trend.points.map((p) => p.mentionRateChange)).toEqual([null, 'steady', 'up']);
    // Week over week: 20 of 60 against 0 of 20 the week before.
    const score = (await t.rest(ws.key, 'GET', '/api/v1/visibility/score', { days: '7' })).body.data as z.output<typeof visibilityScoreReport>;
    expect(score.previous).toMatchObject({ window: { days: 7 }, mentionRate: { count: 0, of: 20 }, mentionRateChange: 'up' });
  });
});
