import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import { TestService, START_TIME, type TestWorkspace } from '../support/harness.js';

const DAY = 86_400_000;

describe('activate_analytics_screen', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('turns a screen on once: repeating it changes nothing and keeps the first time', async () => {
    const ws = await t.workspace();
    const first = await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ screen: 'analytics', active: true, activatedAt: new Date(START_TIME).toISOString(), alreadyActive: false });
    t.clock.advance(DAY);
    const again = await t.mcpTool(ws.key, 'activate_analytics_screen', { screen: 'analytics' });
    expect(again.structuredContent).toEqual({ screen: 'analytics', active: true, activatedAt: new Date(START_TIME).toISOString(), alreadyActive: true });
    const reports = await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'reports' });
    expect(reports.body.data).toMatchObject({ screen: 'reports', alreadyActive: false });
    // Another workspace's screens are its own.
    const other = await t.workspace();
    expect((await t.rest(other.key, 'POST', '/api/v1/analytics/activate', { screen: 'analytics' })).body.data).toMatchObject({ alreadyActive: false });
  });

  it('refuses a screen it does not know, naming the field, and changes nothing', async () => {
    const ws = await t.workspace();
    const answer = await t.rest(ws.key, 'POST', '/api/v1/analytics/activate', { screen: 'dashboard' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('screen: must be one of analytics, reports');
    expect(await t.db.selectFrom('analytics_screens').selectAll().where('workspace_id', '=', ws.workspaceId).execute()).toEqual([]);
  });
});

describe('get_agent_activity', () => {
  let t: TestService;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await TestService.start();
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  const job = async (kind: Parameters<typeof enqueueJob>[2]['kind'], state: 'queued' | 'running' | 'done' | 'failed', createdDaysAgo: number) => {
    t.clock.set(START_TIME - createdDaysAgo * DAY);
    const jobId = await enqueueJob(t.db, t.clock, { workspaceId: ws.workspaceId, kind });
    const finished = state === 'done' || state === 'failed' ? t.clock.now() + 60_000 : null;
    await t.db.updateTable('jobs').set({ state, finished_at: finished }).where('id', '=', jobId).execute();
    t.clock.set(START_TIME);
  };

  it('counts the runs of each lane in the window by outcome', async () => {
    await job('write_article', 'done', 1);
    await job('write_article', 'failed', 2);
    await job('write_article', 'done', 10);
    await job('deliver', 'done', 0);
    await job('render_check', 'queued', 0);
    await job('engine_check', 'done', 3);
    await job('rank_check', 'running', 0);
    await job('outreach_send', 'done', 1);
    const activity = await t.rest(ws.key, 'GET', '/api/v1/reports/agent-activity');
    expect(activity.status).toBe(200);
    const data = activity.body.data as { window: Record<string, unknown>; lanes: Array<Record<string, unknown>> };
    expect(data.window).toEqual({ days: 7, from: new Date(START_TIME - 6 * DAY).toISOString().slice(0, 10), to: new Date(START_TIME).toISOString().slice(0, 10) });
    const lane = (name: string) => data.lanes.find((l) => l.lane === name);
    expect(lane('writing')).toEqual({ lane: 'writing', kinds: ['write_article'], runs: 2, succeeded: 1, failed: 1, inProgress: 0, lastFinishedAt: new Date(START_TIME - DAY + 60_000).toISOString() });
    expect(lane('publishing')).toMatchObject({ runs: 2, succeeded: 1, failed: 0, inProgress: 1 });
    expect(lane('checks')).toMatchObject({ runs: 2, succeeded: 1, inProgress: 1 });
    expect(lane('outreach')).toMatchObject({ lane: 'outreach', kinds: ['outreach_send', 'outreach_replies', 'outreach_discover', 'link_network_match'], runs: 1, succeeded: 1, failed: 0, inProgress: 0 });
    expect(lane('social')).toEqual({ lane: 'social', kinds: ['social_search', 'repurpose_push'], runs: 0, succeeded: 0, failed: 0, inProgress: 0, lastFinishedAt: null });
    // 30 days take in the article written 10 days ago.
    const month = (await t.mcpTool(ws.key, 'get_agent_activity', { days: '30' })).structuredContent as { lanes: Array<Record<string, unknown>> };
    expect(month.lanes.find((l) => l.lane === 'writing')).toMatchObject({ runs: 3, succeeded: 2 });
    // Another workspace sees none of it.
    const other = await t.workspace();
    const theirs = (await t.rest(other.key, 'GET', '/api/v1/reports/agent-activity')).body.data as { lanes: Array<{ runs: number }> };
    expect(theirs.lanes.every((l) => l.runs === 0)).toBe(true);
  });

  it('refuses a window it does not offer, naming the field', async () => {
    const answer = await t.rest(ws.key, 'GET', '/api/v1/reports/agent-activity', { days: '14' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('days: must be one of 7, 30, 90');
  });
});
