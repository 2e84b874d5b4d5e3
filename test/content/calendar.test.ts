import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextFreeSlot } from '../../src/content/calendar.js';
import { TestService, START_TIME } from '../support/harness.js';
import { article, at, commit, markWritten, ok } from './calendarSupport.js';

interface Capacity {
  months: Array<{ month: string; allowance: number; used: number; remaining: number; openSlots: number }>;
  nextFreeSlot: string | null;
  horizonEnd: string;
  schedule: { publishDays: string[]; publishTime: string; slotsPerDay: number; flexibleScheduling: boolean };
}

describe('the content calendar', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(START_TIME));

  describe('commit_planned_titles', () => {
    it("books each title into the next publish slot in order, with the policy's content type and the brand's language, and reports what did not fit", async () => {
      const ws = await t.workspace({ plan: 'trial' });
      await ok(t, ws, 'POST', '/api/v1/brand/profile', { defaultLocale: 'de-DE' });
      await ok(t, ws, 'POST', '/api/v1/settings/articles', { contentType: 'guide' });
      const query = await ok<{ query: { id: string } }>(t, ws, 'POST', '/api/v1/queries', { text: 'Article Keyword 2' });
      const data = await commit(t, ws, 10);
      // Saturday 21 November 09:00; Monday, Wednesday, Friday at 09:00 UTC; the trial allows 4 a month.
      expect(data.planned.map((p) => p.scheduledAt)).toEqual([
        '2026-11-23T09:00:00.000Z',
        '2026-11-25T09:00:00.000Z',
        '2026-11-27T09:00:00.000Z',
        '2026-11-30T09:00:00.000Z',
        '2026-12-02T09:00:00.000Z',
        '2026-12-04T09:00:00.000Z',
        '2026-12-07T09:00:00.000Z',
        '2026-12-09T09:00:00.000Z',
      ]);
      expect(data.created).toBe(8);
      expect(data.planned.map((p) => p.title)).toEqual(['Article 1', 'Article 2', 'Article 3', 'Article 4', 'Article 5', 'Article 6', 'Article 7', 'Article 8']);
      expect(data.planned[1]!.queryId).toBe(query.query.id);
      expect(data.planned[0]!.queryId).toBeNull();
      expect(data.notPlanned).toEqual([
        { title: 'Article 9', keyword: 'article keyword 9', reason: expect.stringMatching(/^calendar full/) },
        { title: 'Article 10', keyword: 'article keyword 10', reason: expect.stringMatching(/^calendar full/) },
      ]);
      expect(await article(t, data.planned[0]!.contentId)).toMatchObject({
        status: 'planned',
        title: 'Article 1',
        slug: 'article-1',
        keyword: 'article keyword 1',
        content_type: 'guide',
        language: 'de-DE',
        scheduled_at: at('2026-11-23T09:00:00.000Z'),
      });
    });

    it('gives the last open slot to one of two commits racing for it', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      await commit(t, ws, 7);
      const keys = [await t.key(ws.workspaceId, ['write:content']), await t.key(ws.workspaceId, ['write:content'])];
      const answers = await Promise.all(keys.map((key, i) => t.rest(key, 'POST', '/api/v1/content/plan/commit', { titles: [{ title: `Racer ${i}`, keyword: `racer ${i}` }] })));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => (a.body.data as { created: number }).created).sort()).toEqual([0, 1]);
      const booked = await t.db.selectFrom('articles').select('id').where('workspace_id', '=', ws.workspaceId).execute();
      expect(booked).toHaveLength(8);
    });

    it('refuses an empty list and more than 20 titles', async () => {
      const ws = await t.workspace();
      expect((await t.rest(ws.key, 'POST', '/api/v1/content/plan/commit', { titles: [] })).body.error).toBe('titles: must have at least 1 item');
      const many = Array.from({ length: 21 }, (_, i) => ({ title: `T${i}`, keyword: `k${i}` }));
      expect((await t.rest(ws.key, 'POST', '/api/v1/content/plan/commit', { titles: many })).body.error).toBe('titles: must have at most 20 items');
    });
  });

  describe('slots', () => {
    it('are strictly after now: a slot at this very minute is gone, one later today is open', async () => {
      const ws = await t.workspace();
      t.clock.set(at('2026-11-23T09:00:00.000Z'));
      expect(await nextFreeSlot(t.db, ws.workspaceId, t.clock.now())).toBe(at('2026-11-25T09:00:00.000Z'));
      t.clock.set(at('2026-11-23T08:59:00.000Z'));
      expect(await nextFreeSlot(t.db, ws.workspaceId, t.clock.now())).toBe(at('2026-11-23T09:00:00.000Z'));
    });

    it("follow the policy's publish days and time", async () => {
      const ws = await t.workspace();
      await ok(t, ws, 'POST', '/api/v1/settings/articles', { publishDays: ['sun', 'tue'], publishTime: '17:45' });
      const data = await commit(t, ws, 3);
      expect(data.planned.map((p) => p.scheduledAt)).toEqual(['2026-11-22T17:45:00.000Z', '2026-11-24T17:45:00.000Z', '2026-11-29T17:45:00.000Z']);
    });

    it('take several articles a day only while flexible scheduling is on', async () => {
      const ws = await t.workspace();
      await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
      await ok(t, ws, 'POST', '/api/v1/settings/articles', { articlesPerDay: 3 });
      const data = await commit(t, ws, 4);
      expect(data.planned.map((p) => p.scheduledAt)).toEqual([
        '2026-11-23T09:00:00.000Z',
        '2026-11-23T09:00:00.000Z',
        '2026-11-23T09:00:00.000Z',
        '2026-11-25T09:00:00.000Z',
      ]);
      // Switched off, the stored 3 a day no longer applies: Wednesday already has its one.
      await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: false });
      expect((await commit(t, ws, 1, 'Later')).planned[0]!.scheduledAt).toBe('2026-11-27T09:00:00.000Z');
    });

    it('stop at the end of next month: nothing beyond the horizon is planned', async () => {
      const ws = await t.workspace({ plan: 'scale' });
      const data = await commit(t, ws, 20);
      const last = data.planned.at(-1)!.scheduledAt;
      expect(data.created).toBe(17);
      // November: 23, 25, 27, 30; December: every Monday, Wednesday and Friday (13).
      expect(last).toBe('2026-12-30T09:00:00.000Z');
      expect(data.notPlanned).toHaveLength(3);
    });
  });

  describe('get_planning_capacity', () => {
    it('reports allowance, used, remaining and open slots for this and next month, and the next free slot', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      const empty = await ok<Capacity>(t, ws, 'GET', '/api/v1/content/planning-capacity');
      expect(empty).toEqual({
        months: [
          { month: '2026-11', allowance: 4, used: 0, remaining: 4, openSlots: 4 },
          { month: '2026-12', allowance: 4, used: 0, remaining: 4, openSlots: 4 },
        ],
        nextFreeSlot: '2026-11-23T09:00:00.000Z',
        horizonEnd: '2027-01-01T00:00:00.000Z',
        schedule: { publishDays: ['mon', 'wed', 'fri'], publishTime: '09:00', slotsPerDay: 1, flexibleScheduling: false },
      });
      expect((await t.mcpTool(ws.key, 'get_planning_capacity')).structuredContent).toEqual(empty);
      await commit(t, ws, 5);
      const after = await ok<Capacity>(t, ws, 'GET', '/api/v1/content/planning-capacity');
      expect(after.months).toEqual([
        { month: '2026-11', allowance: 4, used: 4, remaining: 0, openSlots: 0 },
        { month: '2026-12', allowance: 4, used: 1, remaining: 3, openSlots: 3 },
      ]);
      expect(after.nextFreeSlot).toBe('2026-12-04T09:00:00.000Z');
    });

    it('counts an archived article that was written, but not one archived before it was written', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      const { planned } = await commit(t, ws, 2);
      await markWritten(t, planned[0]!.contentId);
      await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned[0]!.contentId });
      await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned[1]!.contentId });
      const capacity = await ok<Capacity>(t, ws, 'GET', '/api/v1/content/planning-capacity');
      expect(capacity.months[0]).toEqual({ month: '2026-11', allowance: 4, used: 1, remaining: 3, openSlots: 3 });
      // The unwritten archived row gave its Wednesday slot back.
      expect(capacity.nextFreeSlot).toBe('2026-11-25T09:00:00.000Z');
    });

    it('counts articles earlier in the month against its allowance and says null when the calendar is full', async () => {
      const ws = await t.workspace({ plan: 'trial' });
      t.clock.set(at('2026-11-02T08:00:00.000Z'));
      await commit(t, ws, 3);
      t.clock.set(START_TIME);
      const capacity = await ok<Capacity>(t, ws, 'GET', '/api/v1/content/planning-capacity');
      expect(capacity.months[0]).toMatchObject({ used: 3, remaining: 1, openSlots: 1 });
      await commit(t, ws, 5, 'More');
      expect((await ok<Capacity>(t, ws, 'GET', '/api/v1/content/planning-capacity')).nextFreeSlot).toBeNull();
    });
  });
});
