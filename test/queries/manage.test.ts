import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import { expectBadInput } from '../brand/support.js';
import { ok } from '../content/calendarSupport.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { AnswerRecorder } from '../visibility/checks/support.js';

interface QueryRecord {
  id: string;
  text: string;
  hidden: boolean;
}

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

describe('write:queries: add_query, update_query and remove_query', () => {
  it('lets a key holding only write:queries add, reword, hide and remove queries, and nothing of write:content', async () => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, ['write:queries']);
    const added = await t.rest(key, 'POST', '/api/v1/queries', { text: 'best crm for agencies' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const queryId = (added.body.data as { query: QueryRecord }).query.id;
    const reworded = await t.rest(key, 'POST', '/api/v1/queries/update', { queryId, text: '  best  CRM for small agencies ', hidden: true });
    expect(reworded.status, JSON.stringify(reworded.body)).toBe(200);
    expect((reworded.body.data as { query: QueryRecord }).query).toMatchObject({ id: queryId, text: 'best CRM for small agencies', hidden: true });
    expect((await t.rest(key, 'POST', '/api/v1/queries/remove', { queryId, confirm: true })).status).toBe(200);
    const refused = await t.rest(key, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: 'jargon', instead: 'plain words' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('this key lacks the scope write:content, which add_brand_guideline requires');
    const noScope = await t.rest(await t.key(ws.workspaceId, ['read:content']), 'POST', '/api/v1/queries', { text: 'x' });
    expect(noScope.body.error).toBe('this key lacks the scope write:content or write:queries, which add_query requires');
  });

  it('update_query refuses another tracked query\'s wording and an empty change, and shows a hidden query again', async () => {
    const ws = await t.workspace();
    const first = (await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' })).query;
    await ok(t, ws, 'POST', '/api/v1/queries', { text: 'crm for plumbers' });
    const before = await snapshot(t.db);
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/queries/update', { queryId: first.id, text: 'CRM  for Plumbers' }), 'text', 'is already tracked as query');
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/queries/update', { queryId: first.id }), 'text', 'give text, hidden or both');
    expect(await snapshot(t.db)).toEqual(before);
    await ok(t, ws, 'POST', '/api/v1/queries/update', { queryId: first.id, hidden: true });
    const shown = await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries/update', { queryId: first.id, hidden: false });
    expect(shown.query.hidden).toBe(false);
    // Rewording to its own wording (another case) is not a clash.
    expect((await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries/update', { queryId: first.id, text: 'CRM for dentists' })).query.text).toBe('CRM for dentists');
  });

  it('remove_query says in its dry run what goes, then deletes the answers and rank checks with the query and frees its slot', async () => {
    const ws = await t.workspace();
    const query = (await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries', { text: 'best crm for agencies' })).query;
    const kept = (await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' })).query;
    const recorder = await AnswerRecorder.start(t, ws);
    await recorder.answer('chatgpt', query.id, 'Acme Analytics is a good pick.', ['https://acme.example/guide']);
    await recorder.answer('gemini', query.id, 'Try Acme Analytics.');
    await recorder.answer('chatgpt', kept.id, 'Acme Analytics.');
    const dryRun = await ok<{ dryRun: boolean; note: string }>(t, ws, 'POST', '/api/v1/queries/remove', { queryId: query.id });
    expect(dryRun).toEqual({
      dryRun: true,
      note:
        'Would stop tracking "best crm for agencies" and delete its 2 recorded engine answers and 0 rank checks, freeing one tracked-query slot. ' +
        'Daily visibility figures already computed keep counting them; an article planned from it stays.',
    });
    const removed = await ok(t, ws, 'POST', '/api/v1/queries/remove', { queryId: query.id, confirm: true });
    expect(removed).toEqual({ removed: true, queryId: query.id, deletedAnswers: 2, deletedRankChecks: 0, usage: { used: 1, limit: 1000 } });
    const answers = await t.db.selectFrom('engine_answers').select('query_id').where('workspace_id', '=', ws.workspaceId).execute();
    expect(answers).toEqual([{ query_id: kept.id }]);
    expect((await t.rest(ws.key, 'POST', '/api/v1/queries/remove', { queryId: query.id, confirm: true })).status).toBe(404);
  });

  it('remove_query is refused while a check run still has to ask the query', async () => {
    const ws = await t.workspace();
    const query = (await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries', { text: 'best crm for agencies' })).query;
    await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind: 'rank_check', subjectId: query.id, payload: { runId: 'run_x', queryId: query.id } });
    const before = await snapshot(t.db);
    for (const input of [{ queryId: query.id }, { queryId: query.id, confirm: true }]) {
      expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/queries/remove', input), 'queryId', 'a check run is still asking this query; remove it once the run has finished');
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});

describe('plan_content_idea by queryId', () => {
  it('plans the tracked query the id names, and refuses both or neither of queryText and queryId', async () => {
    const ws = await t.workspace();
    const query = (await ok<{ query: QueryRecord }>(t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' })).query;
    await t.db.updateTable('queries').set({ suggested_title: 'How dentists pick a CRM' }).where('id', '=', query.id).execute();
    const planned = await ok<{ created: number; queryId: string; title: string }>(t, ws, 'POST', '/api/v1/content/ideas/plan', { queryId: query.id });
    expect(planned).toMatchObject({ created: 1, queryId: query.id, title: 'How dentists pick a CRM' });
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/content/ideas/plan', {}), 'queryText', 'give queryText or queryId, one of them');
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/content/ideas/plan', { queryText: 'x', queryId: query.id }), 'queryText', 'give queryText or queryId, one of them');
  });
});
