import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEngineAnswer, recordRankCheck } from '../../../src/visibility/checks/record.js';
import { insertCheckRun } from '../../../src/visibility/checks/runs.js';
import { TestService } from '../../support/harness.js';
import { addCompetitor, addQuery, AnswerRecorder } from './support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

describe('recording an engine answer', () => {
  it('gives every answer of a workspace its own time, never earlier than the latest, even when recorded at once', async () => {
    const ws = await t.workspace();
    const queryId = await addQuery(t, ws, 'best crm');
    const recorder = await AnswerRecorder.start(t, ws);
    const now = t.clock.now();
    const times = (await Promise.all(Array.from({ length: 12 }, () => recorder.answer('chatgpt', queryId, 'Nothing here.')))).map((r) => r.checkedAt);
    expect([...times].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => now + i));
    // A clock that went back still records after the latest.
    t.clock.advance(-60_000);
    expect((await recorder.answer('gemini', queryId, 'x')).checkedAt).toBe(now + 12);
    t.clock.advance(60_000);
    // Another workspace's answers have their own times.
    const other = await t.workspace();
    const otherRecorder = await AnswerRecorder.start(t, other);
    expect((await otherRecorder.answer('chatgpt', await addQuery(t, other, 'best crm'), 'x')).checkedAt).toBe(now);
  });

  it('records a check once: a second recording of the same run, query, engine and run index changes nothing', async () => {
    const ws = await t.workspace();
    const queryId = await addQuery(t, ws, 'crm for dentists');
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'manual', engines: ['chatgpt'], runsPerQuery: 1, planned: 1 });
    const input = {
      workspaceId: ws.workspaceId,
      runId,
      queryId,
      engine: 'chatgpt' as const,
      runIndex: 1,
      answer: { text: 'Acme Analytics.', citations: [], model: 'm', latencyMs: 5 },
      error: null,
    };
    const first = await recordEngineAnswer(t.db, t.clock, input);
    const again = await recordEngineAnswer(t.db, t.clock, { ...input, answer: null, error: { errorClass: 'timeout', message: 'late' } });
    expect(again).toEqual({ ...first, recorded: false });
    expect(await t.db.selectFrom('engine_answers').select('id').where('run_id', '=', runId).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('visibility_daily').select(['answers', 'mentioned', 'failed']).where('workspace_id', '=', ws.workspaceId).execute()).toEqual([{ answers: 1, mentioned: 1, failed: 0 }]);
    expect(await t.db.selectFrom('check_runs').select(['state', 'completed', 'failed']).where('id', '=', runId).executeTakeFirst()).toEqual({ state: 'done', completed: 1, failed: 0 });
  });

  it('classifies for the current competitors only: a removed one is not classified in new answers and keeps its past ones', async () => {
    const ws = await t.workspace();
    const queryId = await addQuery(t, ws, 'crm pricing');
    const rival = await addCompetitor(t, ws, 'Rival', 'https://rival.example');
    const recorder = await AnswerRecorder.start(t, ws);
    const before = await recorder.answer('chatgpt', queryId, 'Rival and Acme Analytics.');
    await t.db.updateTable('competitors').set({ removed_at: t.clock.now() }).where('id', '=', rival).execute();
    const after = await recorder.answer('chatgpt', queryId, 'Rival and Acme Analytics.');
    const subjects = async (answerId: string) =>
      (await t.db.selectFrom('answer_mentions').select(['subject_id', 'result']).where('answer_id', '=', answerId).orderBy('subject_id').execute()).map((r) => `${r.subject_id}:${r.result}`);
    expect(await subjects(before.answerId)).toEqual(['brand:mentioned', `${rival}:mentioned`]);
    expect(await subjects(after.answerId)).toEqual(['brand:mentioned']);
  });

  it('uses the brand aliases, product names and exclusions of brand memory', async () => {
    const ws = await t.workspace();
    const queryId = await addQuery(t, ws, 'note apps');
    expect((await t.rest(ws.key, 'POST', '/api/v1/brand', { brandAliases: ['AcmeNotes'], brandExclusions: ['acme of'] })).status).toBe(200);
    expect((await t.rest(ws.key, 'POST', '/api/v1/brand/product', { name: 'RocketDash', description: 'Dashboards', category: 'core_product' })).status).toBe(200);
    const recorder = await AnswerRecorder.start(t, ws);
    const results = [];
    for (const text of ['Try AcmeNotes.', 'RocketDash is neat.', 'The acme of note taking.', 'Visit acme.example.']) {
      results.push((await recorder.answer('chatgpt', queryId, text)).brandResult);
    }
    expect(results).toEqual(['mentioned', 'mentioned', 'none', 'mentioned']);
  });
});

describe('recording a rank check', () => {
  it('takes the best-ranked result on the workspace site (subdomains and www. included) within the top 30', async () => {
    const ws = await t.workspace();
    const queryId = await addQuery(t, ws, 'crm for bakeries');
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: ws.workspaceId, trigger: 'manual', engines: [], runsPerQuery: 1, planned: 2 });
    const organic = [
      { position: 31, url: 'https://acme.example/too-deep', domain: 'acme.example', title: null },
      { position: 1, url: 'https://other.example/', domain: 'other.example', title: 'Other' },
      { position: 4, url: 'https://www.acme.example/b', domain: 'acme.example', title: null },
      { position: 3, url: 'https://docs.acme.example/a', domain: 'docs.acme.example', title: null },
      { position: 2, url: 'https://notacme.example/', domain: 'notacme.example', title: null },
    ];
    const google = await recordRankCheck(t.db, t.clock, {
      workspaceId: ws.workspaceId,
      runId,
      queryId,
      searchEngine: 'google',
      organic,
      aiOverview: { shown: true, text: 'An overview.', references: [{ url: 'https://other.example/', domain: 'other.example', title: null, rank: 1 }] },
      error: null,
    });
    expect(google).toMatchObject({ recorded: true, position: 3 });
    const row = await t.db.selectFrom('rank_checks').selectAll().where('id', '=', google.rankCheckId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ position: 3, url: 'https://docs.acme.example/a', ai_overview_shown: 1, ai_overview_cites_us: 0 });
    expect((JSON.parse(row.results) as Array<{ position: number }>).map((r) => r.position)).toEqual([1, 2, 3, 4]);
    await recordRankCheck(t.db, t.clock, { workspaceId: ws.workspaceId, runId, queryId, searchEngine: 'bing', organic: null, error: { errorClass: 'timeout', message: 'slow' } });
    expect(await t.db.selectFrom('check_runs').select(['state', 'completed', 'failed']).where('id', '=', runId).executeTakeFirst()).toEqual({ state: 'done', completed: 1, failed: 1 });
  });
});
