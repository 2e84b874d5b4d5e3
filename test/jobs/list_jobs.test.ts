import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import { expectBadInput } from '../brand/support.js';
import { TestService } from '../support/harness.js';

interface Job {
  id: string;
  kind: string;
  state: string;
}

describe('list_jobs', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it("lists the workspace's jobs newest first with their state, tokens and times, filtered by kind and state and limited", async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    await enqueueJob(t.db, t.clock, { workspaceId: other.workspaceId, kind: 'deliver' });
    const ids: string[] = [];
    for (const kind of ['write_article', 'deliver', 'deliver', 'render_check'] as const) {
      ids.push(await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind, subjectId: `subject_${ids.length}`, runAt: t.clock.now() + 5000 }));
      t.clock.advance(1000);
    }
    const finishedAt = t.clock.now();
    await t.db
      .updateTable('jobs')
      .set({ state: 'failed', attempts: 3, error: 'receiver answered 500', started_at: finishedAt - 500, finished_at: finishedAt })
      .where('id', '=', ids[1]!)
      .execute();
    await t.db
      .updateTable('jobs')
      .set({ state: 'done', attempts: 1, prompt_tokens: 1200, completion_tokens: 800, progress: 'written', result: '{"wordCount":1500}', finished_at: finishedAt })
      .where('id', '=', ids[0]!)
      .execute();

    const all = await t.rest(ws.key, 'GET', '/api/v1/jobs');
    const jobs = (all.body.data as { jobs: Array<Job & Record<string, unknown>> }).jobs;
    expect(jobs.map((j) => j.id)).toEqual([...ids].reverse());
    expect(jobs.at(-1)).toEqual({
      id: ids[0],
      kind: 'write_article',
      subjectId: 'subject_0',
      state: 'done',
      attempts: 1,
      maxAttempts: 3,
      progress: 'written',
      error: null,
      result: { wordCount: 1500 },
      promptTokens: 1200,
      completionTokens: 800,
      createdAt: new Date(finishedAt - 4000).toISOString(),
      runAt: new Date(finishedAt + 1000).toISOString(),
      startedAt: null,
      finishedAt: new Date(finishedAt).toISOString(),
    });

    const byKind = (await t.rest(ws.key, 'GET', '/api/v1/jobs', { kind: 'deliver' })).body.data as { jobs: Job[] };
    expect(byKind.jobs.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const failed = (await t.rest(ws.key, 'GET', '/api/v1/jobs', { kind: 'deliver', state: 'failed' })).body.data as { jobs: Array<Job & { error: string }> };
    expect(failed.jobs).toEqual([expect.objectContaining({ id: ids[1], state: 'failed', error: 'receiver answered 500' })]);
    const limited = (await t.rest(ws.key, 'GET', '/api/v1/jobs', { limit: 2 })).body.data as { jobs: Job[] };
    expect(limited.jobs.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    expect((await t.mcpTool(ws.key, 'list_jobs', { limit: 2 })).structuredContent).toEqual(limited);
  });

  it('refuses a limit outside 1 to 200 and an unknown kind or state', async () => {
    const ws = await t.workspace();
    expectBadInput(await t.rest(ws.key, 'GET', '/api/v1/jobs', { limit: 201 }), 'limit', 'must be at most 200');
    expectBadInput(await t.rest(ws.key, 'GET', '/api/v1/jobs', { limit: 0 }), 'limit', 'must be at least 1');
    expectBadInput(await t.rest(ws.key, 'GET', '/api/v1/jobs', { kind: 'mine_bitcoin' }), 'kind', 'must be one of write_article');
    expectBadInput(await t.rest(ws.key, 'GET', '/api/v1/jobs', { state: 'lost' }), 'state', 'must be one of queued, running, done, failed');
  });

  it('answers 50 jobs unless asked for more', async () => {
    const ws = await t.workspace();
    for (let i = 0; i < 55; i++) await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind: 'render_check' });
    expect(((await t.rest(ws.key, 'GET', '/api/v1/jobs')).body.data as { jobs: Job[] }).jobs).toHaveLength(50);
    expect(((await t.rest(ws.key, 'GET', '/api/v1/jobs', { limit: 200 })).body.data as { jobs: Job[] }).jobs).toHaveLength(55);
  });
});
