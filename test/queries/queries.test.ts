import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/plans.js';
import { expectBadInput } from '../brand/support.js';
import { commit, ok } from '../content/calendarSupport.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';

interface QueryRecord {
  id: string;
  text: string;
  source: string;
  hidden: boolean;
  suggestedTitle: string | null;
  createdAt: string;
  articleId: string | null;
  articleStatus: string | null;
}
interface QueryList {
  queries: QueryRecord[];
  usage: { used: number; limit: number };
}
interface Added {
  created: boolean;
  query: QueryRecord;
  usage: { used: number; limit: number };
}

describe('tracked queries: list_queries and add_query', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it('adds a trimmed query and lists it, oldest first, with no covering article', async () => {
    const ws = await t.workspace({ plan: 'starter' });
    const first = await ok<Added>(t, ws, 'POST', '/api/v1/queries', { text: '  best   crm for agencies ' });
    expect(first).toEqual({
      created: true,
      query: {
        id: expect.stringMatching(/^qry_/),
        text: 'best crm for agencies',
        source: 'user',
        hidden: false,
        suggestedTitle: null,
        createdAt: new Date(t.clock.now()).toISOString(),
        articleId: null,
        articleStatus: null,
      },
      usage: { used: 1, limit: PLANS.starter.trackedQueries },
    });
    t.clock.advance(1000);
    await ok(t, ws, 'POST', '/api/v1/queries', { text: 'crm pricing' });
    const list = await ok<QueryList>(t, ws, 'GET', '/api/v1/queries');
    expect(list.queries.map((q) => q.text)).toEqual(['best crm for agencies', 'crm pricing']);
    expect(list.usage).toEqual({ used: 2, limit: 100 });
    expect((await t.mcpTool(ws.key, 'list_queries')).structuredContent).toEqual(list);
  });

  it('answers the existing query for the same wording in other case and spacing, without a second row', async () => {
    const ws = await t.workspace();
    const first = await ok<Added>(t, ws, 'POST', '/api/v1/queries', { text: 'CRM for Dentists' });
    const again = await ok<Added>(t, ws, 'POST', '/api/v1/queries', { text: 'crm  for dentists' });
    expect(again).toMatchObject({ created: false, query: { id: first.query.id, text: 'CRM for Dentists' }, usage: { used: 1 } });
    const rows = await t.db.selectFrom('queries').select('id').where('workspace_id', '=', ws.workspaceId).execute();
    expect(rows).toHaveLength(1);
  });

  it('tracks a wording once when two adds of it race', async () => {
    const ws = await t.workspace();
    const keys = [await t.key(ws.workspaceId, ['write:content']), await t.key(ws.workspaceId, ['write:content'])];
    const answers = await Promise.all(keys.map((key) => t.rest(key, 'POST', '/api/v1/queries', { text: 'crm for opticians' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => (a.body.data as Added).created).sort()).toEqual([false, true]);
  });

  it("refuses a query beyond the plan's trackedQueries limit, naming text and the limit, and changes nothing", async () => {
    const ws = await t.workspace({ plan: 'trial' });
    const limit = PLANS.trial.trackedQueries;
    // The route cap is 10 a minute per key: a fresh key of the same workspace every 10 calls.
    let key = ws.key;
    for (let i = 0; i < limit; i++) {
      if (i % 10 === 0) key = await t.key(ws.workspaceId, ['write:content']);
      expect((await t.rest(key, 'POST', '/api/v1/queries', { text: `query ${i}` })).status).toBe(200);
    }
    key = await t.key(ws.workspaceId, ['write:content']);
    const before = await snapshot(t.db);
    const refused = await t.rest(key, 'POST', '/api/v1/queries', { text: 'one too many' });
    expectBadInput(refused, 'text', `the plan allows ${limit} tracked queries and all ${limit} are in use`);
    expect(await snapshot(t.db)).toEqual(before);
    // A wording already tracked is still answered at the limit.
    const existing = await t.rest(key, 'POST', '/api/v1/queries', { text: 'QUERY 3' });
    expect(existing.status).toBe(200);
    expect(existing.body.data).toMatchObject({ created: false });
  });

  it('refuses an empty or over-long text', async () => {
    const ws = await t.workspace();
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/queries', { text: '   ' }), 'text', 'must not be empty');
    expectBadInput(await t.rest(ws.key, 'POST', '/api/v1/queries', { text: 'x'.repeat(201) }), 'text', 'must have at most 200 characters');
  });

  it('shows the non-archived article covering a query, by its query or by the same keyword', async () => {
    const ws = await t.workspace();
    const added = await ok<Added>(t, ws, 'POST', '/api/v1/queries', { text: 'Article Keyword 1' });
    const { planned } = await commit(t, ws, 1);
    expect(planned[0]!.queryId).toBe(added.query.id);
    const covered = await ok<QueryList>(t, ws, 'GET', '/api/v1/queries');
    expect(covered.queries.find((q) => q.id === added.query.id)).toMatchObject({ articleId: planned[0]!.contentId, articleStatus: 'planned' });

    // A query added after an article was planned for the same keyword is covered by it.
    const [byKeyword] = (await commit(t, ws, 1, 'Later')).planned;
    const later = await ok<Added>(t, ws, 'POST', '/api/v1/queries', { text: 'LATER keyword 1' });
    expect(later).toMatchObject({ created: true, query: { articleId: byKeyword!.contentId, articleStatus: 'planned' } });
    await ok(t, ws, 'POST', '/api/v1/content/archive', { contentId: planned[0]!.contentId });
    const uncovered = await ok<QueryList>(t, ws, 'GET', '/api/v1/queries');
    // Both queries were added at the same instant: find this one by id, not by position.
    expect(uncovered.queries.find((q) => q.id === added.query.id)).toMatchObject({ articleId: null, articleStatus: null });
  });
});
