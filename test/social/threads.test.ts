import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { RECHECK_AFTER_MS } from '../../src/social/search.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { startSourceServer, type Received, type Reply } from '../integrations/fakes/socialSourceServer.js';
import { insertThread } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const seconds = (ms: number) => Math.floor(ms / 1000);

let t: TestService;
let hn: Awaited<ReturnType<typeof startSourceServer>>;
/** Hits per query the fake Algolia answers; items (by id) it knows; anything else is a 404. */
let hitsFor: (query: string) => unknown[];
let items: Map<string, Record<string, unknown>>;

function hit(objectID: string, title: string, text: string, postedAt: number, extra: Record<string, unknown> = {}) {
  return { objectID, title, story_text: `<p>${text}</p>`, author: 'someone', created_at_i: seconds(postedAt), created_at: new Date(postedAt).toISOString(), num_comments: 4, points: 10, _tags: ['story', `story_${objectID}`], ...extra };
}

function algolia(request: Received): Reply {
  if (request.url.pathname === '/api/v1/search_by_date') return { json: { hits: hitsFor(request.url.searchParams.get('query') ?? ''), page: 0, nbPages: 1 } };
  const item = items.get(request.url.pathname.replace('/api/v1/items/', ''));
  return item === undefined ? { status: 404, json: { error: 'Not found' } } : { json: item };
}

beforeAll(async () => {
  hn = await startSourceServer((request) => algolia(request));
  t = await TestService.start({ env: { SOCIAL_SOURCES_OFF: 'stackexchange', HACKERNEWS_BASE_URL: `${hn.base}/api/v1` } });
});
afterEach(() => {
  t.writer.reset();
  hn.received.length = 0;
});
afterAll(async () => {
  await t.close();
  await hn.close();
});

async function workspaceWithTerms(): Promise<TestWorkspace> {
  const ws = await t.workspace({ name: 'Molar CRM', site: 'https://molarcrm.example' });
  await t.db.updateTable('brands').set({ name: 'Molar CRM' }).where('workspace_id', '=', ws.workspaceId).execute();
  await t.db.insertInto('queries').values({ id: newId('q'), workspace_id: ws.workspaceId, text: 'crm for dentists', text_key: 'crm for dentists', source: 'user', suggested_title: null, hidden_at: null, created_at: t.clock.now() }).execute();
  await t.db
    .insertInto('competitors')
    .values({ id: newId('cmp'), workspace_id: ws.workspaceId, name: 'ToothTrack', website_url: 'https://toothtrack.example', domain: 'toothtrack.example', aliases: '[]', positioning: null, created_at: t.clock.now(), removed_at: null })
    .execute();
  return ws;
}

async function search(ws: TestWorkspace) {
  const queued = await t.rest(ws.key, 'POST', '/api/v1/social/search', {});
  expect(queued.status, JSON.stringify(queued.body)).toBe(200);
  await t.jobs.drain();
  const job = await t.db.selectFrom('jobs').selectAll().where('id', '=', (queued.body.data as { jobId: string }).jobId).executeTakeFirstOrThrow();
  expect(job.state, job.error ?? '').toBe('done');
  return JSON.parse(job.result!) as Record<string, unknown>;
}

const threads = async (ws: TestWorkspace, query: Record<string, unknown> = {}) => {
  const answer = await t.rest(ws.key, 'GET', '/api/v1/social', query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { total: number; nextPage: number | null; threads: Array<Record<string, unknown>> };
};

describe('the social search', () => {
  it('searches each term, keeps a thread found by two terms once, and stores the writer\'s judgement with its reason', async () => {
    const ws = await workspaceWithTerms();
    const now = t.clock.now();
    const shared = hit('5001', 'Ask HN: Which CRM do dentists use?', 'Looking at Molar CRM and ToothTrack for our clinic.', now - 2 * HOUR);
    hitsFor = (query) => (query === 'crm for dentists' ? [shared, hit('5002', 'CRM pricing rant', 'Every CRM for dentists is overpriced.', now - 30 * HOUR)] : query === 'Molar CRM' ? [shared] : []);
    t.writer.answer('social_relevance', (request) => {
      const listing = request.messages.at(-1)!.content;
      expect(listing).toContain('## Thread 1');
      return { threads: [{ index: 1, relevance: 92, reason: 'A clinic asks which CRM to pick.' }, { index: 2, relevance: 35, reason: 'A rant, not a question.' }] };
    });

    const result = await search(ws);
    expect(result).toMatchObject({ terms: ['crm for dentists', 'Molar CRM', 'ToothTrack'], found: 2, new: 2, sources: { hackernews: { threads: 3 } } });
    const searched = hn.received.filter((r) => r.url.pathname.endsWith('/search_by_date'));
    expect(searched.map((r) => r.url.searchParams.get('query'))).toEqual(['crm for dentists', 'Molar CRM', 'ToothTrack']);
    expect(searched[0]!.url.searchParams.get('numericFilters')).toBe(`created_at_i>${seconds(now - 7 * DAY)}`);
    // The brand memory steers the judgement.
    expect(t.writer.requests.at(-1)!.messages[0]!.content).toContain('Molar CRM');

    const list = await threads(ws);
    expect(list.total).toBe(2);
    expect(list.threads[0]).toMatchObject({ source: 'hackernews', title: 'Ask HN: Which CRM do dentists use?', url: 'https://news.ycombinator.com/item?id=5001', matchedQuery: 'crm for dentists', matchedKind: 'query', relevance: 92, relevanceReason: 'A clinic asks which CRM to pick.', scoredBy: 'writer', status: 'new', sourceState: 'open' });
    expect(list.threads[1]).toMatchObject({ relevance: 35, scoredBy: 'writer' });

    // A second run finds the same threads again: refreshed, not stored twice, not judged again.
    const judgedBefore = t.writer.requests.length;
    t.clock.advance(DAY);
    const again = await search(ws);
    expect(again).toMatchObject({ found: 2, new: 0, refreshed: 2 });
    expect(t.writer.requests.length).toBe(judgedBefore);
    expect((await threads(ws)).total).toBe(2);

    // One change for the thread at or above the default relevance threshold (70), recorded when it was first stored.
    const found = await t.db.selectFrom('changes').selectAll().where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'social.thread_found').execute();
    expect(found.map((c) => c.title)).toEqual(['New Hacker News thread, relevance 92: "Ask HN: Which CRM do dentists use?"']);
    expect(JSON.parse(found[0]!.details)).toMatchObject({ source: 'hackernews', url: 'https://news.ycombinator.com/item?id=5001', relevance: 92, relevanceReason: 'A clinic asks which CRM to pick.', matchedQuery: 'crm for dentists' });
  });

  it("records social.thread_found by the workspace's own relevance threshold", async () => {
    const ws = await workspaceWithTerms();
    await t.db.insertInto('alert_rules').values({ workspace_id: ws.workspaceId, kind: 'social.thread_found', enabled: 1, threshold: 95, engines: null, query_ids: null, updated_at: t.clock.now() }).execute();
    const now = t.clock.now();
    hitsFor = (query) => (query === 'crm for dentists' ? [hit('7001', 'Which CRM for a dental clinic?', 'Molar CRM or ToothTrack?', now - HOUR), hit('7002', 'Dentist CRM must-haves', 'A checklist.', now - HOUR)] : []);
    t.writer.answer('social_relevance', () => ({ threads: [{ index: 1, relevance: 96, reason: 'Asks which to pick.' }, { index: 2, relevance: 90, reason: 'Close.' }] }));
    await search(ws);
    const found = await t.db.selectFrom('changes').select('title').where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'social.thread_found').execute();
    expect(found).toEqual([{ title: 'New Hacker News thread, relevance 96: "Which CRM for a dental clinic?"' }]);
  });

  it('judges by the words when the writer model fails, and says so', async () => {
    const ws = await workspaceWithTerms();
    hitsFor = (query) => (query === 'crm for dentists' ? [hit(`6${Date.now() % 100000}`, 'The best CRM for dentists in 2026', 'A list.', t.clock.now() - HOUR)] : []);
    t.writer.answer('social_relevance', () => {
      throw new Error('writer down');
    });
    t.writer.reply({ status: 400, body: { error: { message: 'bad request' } } });
    await search(ws);
    const [thread] = (await threads(ws)).threads;
    expect(thread).toMatchObject({ scoredBy: 'terms', relevance: 80, relevanceReason: '"crm for dentists" is in the title' });
  });

  it('asks the source again about open threads after six hours and closes the ones locked, deleted or archived', async () => {
    const ws = await workspaceWithTerms();
    hitsFor = () => [];
    const now = t.clock.now();
    const open = await insertThread(t.db, t.clock, ws.workspaceId, { external_id: '7001', state_checked_at: now - RECHECK_AFTER_MS - 1 });
    const gone = await insertThread(t.db, t.clock, ws.workspaceId, { external_id: '7002', state_checked_at: now - RECHECK_AFTER_MS - 1, status: 'drafted', reply_draft: 'x' });
    const fresh = await insertThread(t.db, t.clock, ws.workspaceId, { external_id: '7003', state_checked_at: now - HOUR });
    items = new Map([['7001', { id: 7001, type: 'story', created_at_i: seconds(now - HOUR) }]]);
    const result = await search(ws);
    expect(result).toMatchObject({ rechecked: 2, closed: 1 });
    const byId = Object.fromEntries((await threads(ws, { sort: 'newest' })).threads.map((th) => [th.threadId, th]));
    expect(byId[open]).toMatchObject({ status: 'new', sourceState: 'open' });
    expect(byId[gone]).toMatchObject({ status: 'closed', sourceState: 'deleted' });
    expect(byId[fresh]).toMatchObject({ status: 'new' });
    expect(hn.received.filter((r) => r.url.pathname.includes('/items/')).map((r) => r.url.pathname)).toEqual(expect.arrayContaining(['/api/v1/items/7001', '/api/v1/items/7002']));
  });

  it('queues one search at a time, and refuses with the settings to set when no source is configured', async () => {
    const ws = await workspaceWithTerms();
    const first = await t.rest(ws.key, 'POST', '/api/v1/social/search', {});
    const second = await t.rest(ws.key, 'POST', '/api/v1/social/search', {});
    expect(second.body.data).toEqual({ ...(first.body.data as object), queued: false });
    await t.jobs.drain();

    const bare = await TestService.start({ writer: false });
    try {
      const other = await bare.workspace();
      const refused = await bare.rest(other.key, 'POST', '/api/v1/social/search', {});
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^no social source is configured: .*SOCIAL_SOURCES_OFF.*BLUESKY_IDENTIFIER/);
    } finally {
      await bare.close();
    }
  });
});

describe('listing, stats and status', () => {
  it('sorts best first by relevance weighed by freshness, or newest first, with filters and pages', async () => {
    const ws = await t.workspace();
    const now = t.clock.now();
    const old = await insertThread(t.db, t.clock, ws.workspaceId, { relevance: 90, posted_at: now - 13 * DAY });
    const recent = await insertThread(t.db, t.clock, ws.workspaceId, { relevance: 60, posted_at: now - HOUR });
    const weak = await insertThread(t.db, t.clock, ws.workspaceId, { relevance: 20, posted_at: now - 2 * HOUR, source: 'bluesky', community: 'Bluesky' });
    const best = await threads(ws);
    expect(best.threads.map((th) => th.threadId)).toEqual([recent, old, weak]);
    expect(best.threads[0]).toMatchObject({ freshness: 100, score: 60 });
    expect(best.threads[1]).toMatchObject({ freshness: 7, score: 48 });
    expect((await threads(ws, { sort: 'newest' })).threads.map((th) => th.threadId)).toEqual([recent, weak, old]);
    expect((await threads(ws, { source: 'bluesky' })).threads.map((th) => th.threadId)).toEqual([weak]);
    expect((await threads(ws, { minRelevance: 50 })).total).toBe(2);
    const page = await threads(ws, { limit: 2 });
    expect(page).toMatchObject({ total: 3, nextPage: 2 });
    expect((await threads(ws, { limit: 2, page: 2 })).threads.map((th) => th.threadId)).toEqual([weak]);
  });

  it('counts threads per status and source, and lists each source as configured or what to set', async () => {
    const ws = await t.workspace();
    await insertThread(t.db, t.clock, ws.workspaceId);
    await insertThread(t.db, t.clock, ws.workspaceId, { status: 'dismissed' });
    const stats = (await t.mcpTool(ws.key, 'get_social_stats')).structuredContent as Record<string, unknown>;
    expect(stats).toMatchObject({ total: 2, byStatus: { new: 1, drafted: 0, replied: 0, dismissed: 1, closed: 0 }, lastSearch: null });
    expect(stats.bySource).toEqual([
      { source: 'hackernews', configured: true, toConfigure: null, threads: 2, pausedUntil: null },
      { source: 'stackexchange', configured: false, toConfigure: expect.stringContaining('SOCIAL_SOURCES_OFF'), threads: 0, pausedUntil: null },
      { source: 'bluesky', configured: false, toConfigure: 'BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD', threads: 0, pausedUntil: null },
      { source: 'reddit', configured: false, toConfigure: expect.stringContaining('REDDIT_CLIENT_ID'), threads: 0, pausedUntil: null },
    ]);
  });

  it('enforces the moves, records where a reply was posted, and keeps other workspaces\' threads out of reach', async () => {
    const ws = await t.workspace();
    const id = await insertThread(t.db, t.clock, ws.workspaceId);
    const move = (input: Record<string, unknown>, key = ws.key) => t.rest(key, 'POST', '/api/v1/social/status', { threadId: id, ...input });
    const drafted = await move({ status: 'drafted' });
    expect(drafted.status).toBe(400);
    expect(drafted.body.error).toBe(`status: thread ${id} has no reply draft yet: draft one with draft_social_reply`);
    expect((await move({ status: 'new', replyUrl: 'https://news.ycombinator.com/item?id=1' })).body.error).toBe('replyUrl: only goes with status replied');
    const replied = await move({ status: 'replied', replyUrl: 'https://news.ycombinator.com/item?id=99' });
    expect(replied.body.data).toMatchObject({ status: 'replied', replyUrl: 'https://news.ycombinator.com/item?id=99' });
    expect((await move({ status: 'dismissed' })).body.error).toBe(`status: thread ${id} is replied; it can move to new, drafted`);
    expect((await move({ status: 'new' })).body.data).toMatchObject({ status: 'new', replyUrl: null });
    expect((await move({ status: 'closed' })).status).toBe(400);

    const closed = await insertThread(t.db, t.clock, ws.workspaceId, { status: 'closed', source_state: 'locked' });
    const refused = await t.rest(ws.key, 'POST', '/api/v1/social/status', { threadId: closed, status: 'new' });
    expect(refused.body.error).toBe(`status: thread ${closed} is closed; the source locked it, so it can only be dismissed`);

    const other = await t.workspace();
    const foreign = await move({ status: 'dismissed' }, other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(`social thread ${id} not found in this workspace`);
  });
});

describe('draft_social_reply', () => {
  it('drafts with the brand memory and the community norms, adds a disclosure when the brand is named, and moves the thread to drafted', async () => {
    const ws = await workspaceWithTerms();
    const id = await insertThread(t.db, t.clock, ws.workspaceId, { source: 'stackexchange', community: 'stackoverflow', external_id: 'stackoverflow:1' });
    t.writer.answer('social_reply', () => ({ reply: 'Use recall reminders; Molar CRM does this out of the box.' }));
    const answer = await t.rest(ws.key, 'POST', '/api/v1/social/draft-reply', { threadId: id, instructions: 'Mention recall reminders.' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({
      reply: 'Use recall reminders; Molar CRM does this out of the box.\n\nDisclosure: I work on Molar CRM.',
      disclosureAdded: true,
      thread: { status: 'drafted', replyDraft: 'Use recall reminders; Molar CRM does this out of the box.\n\nDisclosure: I work on Molar CRM.' },
    });
    expect((answer.body.data as { norms: string[] }).norms[0]).toMatch(/^Stack Exchange: the answer must stand on its own/);
    const prompt = t.writer.lastPrompt();
    expect(prompt).toContain('# Brand memory');
    expect(prompt).toContain('Molar CRM');
    expect(prompt).toContain('link-only answers are deleted');
    expect(prompt).toContain('What the user asks for: Mention recall reminders.');
  });

  it('asks the source first: a thread deleted there is closed and refused', async () => {
    const ws = await workspaceWithTerms();
    items = new Map();
    const id = await insertThread(t.db, t.clock, ws.workspaceId, { external_id: '8001' });
    const refused = await t.rest(ws.key, 'POST', '/api/v1/social/draft-reply', { threadId: id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`threadId: thread ${id} can no longer be answered: the source deleted it`);
    expect((await t.db.selectFrom('social_threads').select(['status', 'source_state']).where('id', '=', id).executeTakeFirstOrThrow())).toEqual({ status: 'closed', source_state: 'deleted' });
  });

  it('stores a person\'s own text within the community\'s limit, and refuses text with instructions', async () => {
    const ws = await workspaceWithTerms();
    const id = await insertThread(t.db, t.clock, ws.workspaceId, { source: 'bluesky', community: 'Bluesky' });
    const long = await t.rest(ws.key, 'POST', '/api/v1/social/draft-reply', { threadId: id, text: 'x'.repeat(301) });
    expect(long.body.error).toBe('text: must be at most 300 characters for bluesky');
    const both = await t.rest(ws.key, 'POST', '/api/v1/social/draft-reply', { threadId: id, text: 'Hi', instructions: 'Be brief' });
    expect(both.body.error).toBe('text: give either text (your own reply) or instructions (for the writer model), not both');
    const stored = await t.rest(ws.key, 'POST', '/api/v1/social/draft-reply', { threadId: id, text: 'Recall reminders help most.' });
    expect(stored.body.data).toMatchObject({ reply: 'Recall reminders help most.', disclosureAdded: false, thread: { status: 'drafted' } });
    expect(t.writer.requests).toHaveLength(0);
  });
});
