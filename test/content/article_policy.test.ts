import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/content/policy.js';
import { expectBadInput } from '../brand/support.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { commit, iso, ok } from './calendarSupport.js';

const PATH = '/api/v1/settings/articles';

interface PolicyView {
  policy: typeof DEFAULT_POLICY;
  flexibleScheduling: boolean;
  slotsPerDay: number;
  autoWriteAvailable: boolean;
  updatedAt: string | null;
}

describe('article policy', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  const refusedUnchanged = async (ws: TestWorkspace, input: Record<string, unknown>, field: string, rule: string) => {
    const before = await snapshot(t.db);
    expectBadInput(await t.rest(ws.key, 'POST', PATH, input), field, rule);
    expect(await snapshot(t.db)).toEqual(before);
  };

  it('reads the defaults until saved, the same on both surfaces', async () => {
    const ws = await t.workspace();
    const view = await ok<PolicyView>(t, ws, 'GET', PATH);
    expect(view).toEqual({ policy: DEFAULT_POLICY, flexibleScheduling: false, slotsPerDay: 1, autoWriteAvailable: false, updatedAt: null });
    expect((await t.mcpTool(ws.key, 'get_article_policy')).structuredContent).toEqual(view);
  });

  it('changes only the fields sent, and an empty string clears category and author', async () => {
    const ws = await t.workspace();
    await ok(t, ws, 'POST', '/api/v1/brand', { authors: [{ name: 'Dana Reyes' }, { name: 'Sam Lee' }] });
    const first = await ok<PolicyView>(t, ws, 'POST', PATH, { targetWordCount: 2000, categoryName: 'Guides', authorName: 'Sam Lee', includeFaq: false, autoPublish: true });
    expect(first.policy).toEqual({ ...DEFAULT_POLICY, targetWordCount: 2000, categoryName: 'Guides', authorName: 'Sam Lee', includeFaq: false, autoPublish: true });
    expect(first.updatedAt).toBe(iso(t.clock.now()));
    const second = await ok<PolicyView>(t, ws, 'POST', PATH, { publishDays: ['tue'], categoryName: '', authorName: '' });
    expect(second.policy).toEqual({ ...first.policy, publishDays: ['tue'], categoryName: null, authorName: null });
    expect(await ok(t, ws, 'GET', PATH)).toEqual(second);
  });

  it('refuses malformed days, times, counts and lengths, naming the field and rule', async () => {
    const ws = await t.workspace();
    await refusedUnchanged(ws, { publishDays: [] }, 'publishDays', 'must have at least 1 item');
    await refusedUnchanged(ws, { publishDays: ['mon', 'mon'] }, 'publishDays', 'must not name a day twice');
    await refusedUnchanged(ws, { publishDays: ['monday'] }, 'publishDays[0]', 'must be one of mon, tue, wed, thu, fri, sat, sun');
    await refusedUnchanged(ws, { publishTime: '9:00' }, 'publishTime', 'must be a 24-hour time HH:MM');
    await refusedUnchanged(ws, { publishTime: '24:00' }, 'publishTime', 'must be a 24-hour time HH:MM');
    await refusedUnchanged(ws, { articlesPerDay: 0 }, 'articlesPerDay', 'must be at least 1');
    await refusedUnchanged(ws, { articlesPerDay: 6 }, 'articlesPerDay', 'must be at most 5');
    await refusedUnchanged(ws, { targetWordCount: 299 }, 'targetWordCount', 'must be at least 300');
    await refusedUnchanged(ws, { targetWordCount: 5001 }, 'targetWordCount', 'must be at most 5000');
    await refusedUnchanged(ws, { contentType: 'Blog Post' }, 'contentType', 'must be a lower-case word');
  });

  it('allows more than 1 article a day only with flexible scheduling', async () => {
    const ws = await t.workspace();
    await refusedUnchanged(ws, { articlesPerDay: 2 }, 'articlesPerDay', 'more than 1 a day needs flexibleScheduling switched on in the brand profile');
    await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
    expect(await ok(t, ws, 'POST', PATH, { articlesPerDay: 5 })).toMatchObject({ policy: { articlesPerDay: 5 }, flexibleScheduling: true, slotsPerDay: 5 });
    await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: false });
    expect(await ok(t, ws, 'GET', PATH)).toMatchObject({ policy: { articlesPerDay: 5 }, flexibleScheduling: false, slotsPerDay: 1 });
  });

  it("takes only one of the brand's authors", async () => {
    const ws = await t.workspace();
    await refusedUnchanged(ws, { authorName: 'Dana Reyes' }, 'authorName', "must name one of the brand's authors, and the brand has none");
    await ok(t, ws, 'POST', '/api/v1/brand', { authors: [{ name: 'Dana Reyes' }] });
    await refusedUnchanged(ws, { authorName: 'Dan Reyes' }, 'authorName', "must be one of the brand's authors: Dana Reyes");
    expect(await ok(t, ws, 'POST', PATH, { authorName: ' Dana Reyes ' })).toMatchObject({ policy: { authorName: 'Dana Reyes' } });
  });

  it('refuses autoWrite until one article is confirmed live, then allows it', async () => {
    const ws = await t.workspace();
    await refusedUnchanged(ws, { autoWrite: true }, 'autoWrite', 'auto-write becomes available once one article is confirmed live');
    // Switching it off is always allowed.
    expect(await ok(t, ws, 'POST', PATH, { autoWrite: false })).toMatchObject({ policy: { autoWrite: false }, autoWriteAvailable: false });
    const [planned] = (await commit(t, ws, 1)).planned;
    // Another workspace's confirmed article does not count.
    const other = await t.workspace();
    const [foreign] = (await commit(t, other, 1)).planned;
    await t.db.updateTable('articles').set({ status: 'published', live_confirmed_at: t.clock.now() }).where('id', '=', foreign!.contentId).execute();
    await refusedUnchanged(ws, { autoWrite: true }, 'autoWrite', 'auto-write becomes available');
    // The render check records a confirmed live article.
    await t.db.updateTable('articles').set({ status: 'published', live_confirmed_at: t.clock.now() }).where('id', '=', planned!.contentId).execute();
    expect(await ok(t, ws, 'GET', PATH)).toMatchObject({ autoWriteAvailable: true });
    expect(await ok(t, ws, 'POST', PATH, { autoWrite: true })).toMatchObject({ policy: { autoWrite: true }, autoWriteAvailable: true });
  });

  it('requires manage:org', async () => {
    const ws = await t.workspace();
    const key = await t.key(ws.workspaceId, ['read:content', 'write:content']);
    expect((await t.rest(key, 'GET', PATH)).status).toBe(403);
    expect((await t.rest(key, 'POST', PATH, { targetWordCount: 1000 })).status).toBe(403);
  });
});
