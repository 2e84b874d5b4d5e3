import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBadInput } from '../brand/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { article, at, commit, markWritten, ok } from './calendarSupport.js';

const PATH = '/api/v1/content/reschedule';

describe('reschedule_content', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  const flexible = async (ws: TestWorkspace, articlesPerDay = 1) => {
    await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
    await ok(t, ws, 'POST', '/api/v1/settings/articles', { articlesPerDay });
  };
  const refusedUnchanged = async (ws: TestWorkspace, input: Record<string, unknown>, field: string, rule: string) => {
    const before = await snapshot(t.db);
    expectBadInput(await t.rest(ws.key, 'POST', PATH, input), field, rule);
    expect(await snapshot(t.db)).toEqual(before);
  };

  it('moves a planned article to any weekday and time when flexible scheduling is on', async () => {
    const ws = await t.workspace();
    await flexible(ws);
    const [planned] = (await commit(t, ws, 1)).planned;
    const moved = await ok(t, ws, 'POST', PATH, { contentId: planned!.contentId, scheduledAt: '2026-11-29T15:30:00+01:00' });
    expect(moved).toEqual({ contentId: planned!.contentId, title: 'Article 1', previousScheduledAt: '2026-11-23T09:00:00.000Z', scheduledAt: '2026-11-29T14:30:00.000Z' });
    expect((await article(t, planned!.contentId)).scheduled_at).toBe(at('2026-11-29T14:30:00.000Z'));
    // Its old Monday slot is free again.
    expect((await commit(t, ws, 1, 'Next')).planned[0]!.scheduledAt).toBe('2026-11-23T09:00:00.000Z');
  });

  it('refuses every move while flexible scheduling is off, naming the rule', async () => {
    const ws = await t.workspace();
    const [planned] = (await commit(t, ws, 1)).planned;
    await refusedUnchanged(ws, { contentId: planned!.contentId, scheduledAt: '2026-11-29T09:00:00Z' }, 'scheduledAt', 'planned articles can be moved by hand only when flexibleScheduling is on');
  });

  it('refuses articles that are not planned', async () => {
    const ws = await t.workspace();
    await flexible(ws);
    const [planned] = (await commit(t, ws, 1)).planned;
    await markWritten(t, planned!.contentId);
    await refusedUnchanged(ws, { contentId: planned!.contentId, scheduledAt: '2026-11-29T09:00:00Z' }, 'contentId', 'only planned articles can be moved; this one is draft');
  });

  it('refuses a time in the past, beyond the end of next month, or not an ISO date-time', async () => {
    const ws = await t.workspace();
    await flexible(ws);
    const [planned] = (await commit(t, ws, 1)).planned;
    const contentId = planned!.contentId;
    await refusedUnchanged(ws, { contentId, scheduledAt: '2026-11-21T09:00:00Z' }, 'scheduledAt', 'must be in the future');
    await refusedUnchanged(ws, { contentId, scheduledAt: '2027-01-01T00:00:00Z' }, 'scheduledAt', 'must be before 2027-01-01T00:00:00.000Z');
    await refusedUnchanged(ws, { contentId, scheduledAt: 'next tuesday' }, 'scheduledAt', 'must be an ISO date-time');
    expect(await ok(t, ws, 'POST', PATH, { contentId, scheduledAt: '2026-12-31T23:59:00Z' })).toMatchObject({ scheduledAt: '2026-12-31T23:59:00.000Z' });
  });

  it("refuses a day that already has the policy's articles a day, and allows it once the policy allows more", async () => {
    const ws = await t.workspace();
    await flexible(ws, 1);
    const { planned } = await commit(t, ws, 2);
    const move = { contentId: planned[1]!.contentId, scheduledAt: '2026-11-23T18:00:00Z' };
    await refusedUnchanged(ws, move, 'scheduledAt', '2026-11-23 already has 1 article and the policy allows 1 a day');
    await ok(t, ws, 'POST', '/api/v1/settings/articles', { articlesPerDay: 2 });
    expect(await ok(t, ws, 'POST', PATH, move)).toMatchObject({ scheduledAt: '2026-11-23T18:00:00.000Z' });
  });

  it("refuses a month whose plan allowance is used up", async () => {
    const ws = await t.workspace({ plan: 'trial' });
    await flexible(ws, 5);
    // Trial, 5 a day: November's 4 all on Monday the 23rd, then December's 4 on Wednesday the 2nd.
    const { planned } = await commit(t, ws, 8);
    expect(planned.map((p) => p.scheduledAt.slice(0, 10))).toEqual([...Array(4).fill('2026-11-23'), ...Array(4).fill('2026-12-02')]);
    await refusedUnchanged(ws, { contentId: planned[0]!.contentId, scheduledAt: '2026-12-20T09:00:00Z' }, 'scheduledAt', "2026-12 already has 4 articles, the plan's monthly allowance of 4");
    // Within the same month the article's own place counts for nothing.
    expect(await ok(t, ws, 'POST', PATH, { contentId: planned[0]!.contentId, scheduledAt: '2026-11-28T09:00:00Z' })).toMatchObject({ scheduledAt: '2026-11-28T09:00:00.000Z' });
  });
});
