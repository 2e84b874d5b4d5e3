import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScheduler } from '../../src/repurpose/schedulers/index.js';
import { POSTIZ_LIMIT, postizLimitKey } from '../../src/integrations/postiz/scheduler.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, type SchedulerAccount, type SchedulerPost } from '../../src/repurpose/schedulers/scheduler.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { FakeBuffer } from '../integrations/fakes/buffer.js';
import { FakePostiz } from '../integrations/fakes/postiz.js';
import { FakeTypefully } from '../integrations/fakes/typefully.js';
import { connectScheduler, insertRepurposeDraft } from './support.js';

let t: TestService;
let postiz: FakePostiz;
let buffer: FakeBuffer;
let typefully: FakeTypefully;

const HOUR = 3_600_000;

beforeAll(async () => {
  [postiz, buffer, typefully] = await Promise.all([FakePostiz.start(), FakeBuffer.start(), FakeTypefully.start()]);
  t = await TestService.start({
    writer: false,
    outbound: { allowPrivateAddresses: true },
    env: { ALLOW_PRIVATE_TARGETS: '1', SECRETS_KEY: 'b'.repeat(64), BUFFER_BASE_URL: buffer.baseUrl, TYPEFULLY_BASE_URL: typefully.baseUrl },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([postiz?.close(), buffer?.close(), typefully?.close()]);
});

const deps = () => ({ outbound: t.service.services.outbound, limits: t.service.services.schedulers.limits, clock: t.clock });
const channel = (id: string, platform: string, format: 'x' | 'linkedin' = 'linkedin') => ({ id, name: id, format, platform, active: true });
const post = (key: string, channelId: string, platform: string, parts: string[], scheduleAt: number | null = null): SchedulerPost => ({
  channel: channel(channelId, platform),
  parts,
  scheduleAt,
  idempotencyKey: key,
});

async function postizWorkspace(fake = postiz): Promise<TestWorkspace> {
  const ws = await t.workspace();
  await connectScheduler(t, t.service.services.credentials, ws.workspaceId, 'postiz', fake.baseUrl, FakePostiz.KEY);
  return ws;
}

async function draftRow(id: string) {
  return t.db.selectFrom('repurpose_drafts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('Postiz', () => {
  it('lists the integrations as channels with their formats, and refuses a wrong key as the key', async () => {
    const ws = await postizWorkspace();
    const answer = await t.rest(ws.key, 'GET', '/api/v1/repurpose/channels');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      tool: 'postiz',
      channels: [
        { id: 'int-x', name: 'Acme on X', format: 'x', platform: 'x', active: true },
        { id: 'int-li', name: 'Acme Inc', format: 'linkedin', platform: 'linkedin-page', active: true },
        { id: 'int-ig', name: 'Acme gram', format: null, platform: 'instagram', active: true },
        { id: 'int-off', name: 'Old X', format: 'x', platform: 'x', active: false },
      ],
    });
    expect(postiz.requests.at(-1)!.headers.authorization).toBe(FakePostiz.KEY);

    const wrong = await t.workspace();
    await connectScheduler(t, t.service.services.credentials, wrong.workspaceId, 'postiz', postiz.baseUrl, 'not-the-key');
    const refused = await t.rest(wrong.key, 'GET', '/api/v1/repurpose/channels');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('Postiz refused the API key (401)');
    expect(refused.body.error).toContain(`/w/${wrong.workspaceId}/repurpose/scheduler`);
    const row = await t.db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', wrong.workspaceId).executeTakeFirstOrThrow();
    expect(row.last_error).toContain('refused the API key');

    const none = await t.workspace();
    const unconnected = await t.rest(none.key, 'GET', '/api/v1/repurpose/channels');
    expect(unconnected.status).toBe(400);
    expect(unconnected.body.error).toBe(`no scheduling tool connected: an owner connects one at /w/${none.workspaceId}/repurpose/scheduler`);
  });

  it('sends in one POST /posts exactly what the dry run showed, then records the post', async () => {
    const ws = await postizWorkspace();
    const first = await insertRepurposeDraft(t, ws.workspaceId);
    const second = await insertRepurposeDraft(t, ws.workspaceId, { posts: ['Second post about reminders.'] });
    const scheduleAt = new Date(t.clock.now() + 2 * 86_400_000).toISOString();
    const input = { draftIds: [first, second], channelId: 'int-li', scheduleAt };
    const dry = await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', input);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const details = dry.body.data as { dryRun: boolean; scheduleAt: string; requests: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> };
    expect(details.dryRun).toBe(true);
    expect(details.scheduleAt).toBe(scheduleAt);
    expect(details.requests).toHaveLength(1);
    expect(details.requests[0]!.headers.authorization).toBe('<api key>');
    expect(JSON.stringify(details)).not.toContain(FakePostiz.KEY);
    expect((await draftRow(first)).state).toBe('draft');

    const confirmed = await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', { ...input, confirm: true });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const queued = confirmed.body.data as { jobId: string; drafts: Array<{ draftId: string; state: string; scheduler: Record<string, unknown> }> };
    expect(queued.drafts.map((d) => [d.draftId, d.state])).toEqual([
      [first, 'queued'],
      [second, 'queued'],
    ]);
    expect(queued.drafts[0]!.scheduler).toMatchObject({ tool: 'postiz', channelId: 'int-li', channelName: 'Acme Inc', scheduledFor: scheduleAt, postId: null });
    expect((await draftRow(first)).push_job_id).toBe(queued.jobId);

    const before = postiz.requests.length;
    await t.jobs.drain();
    const sent = postiz.requests.slice(before).filter((r) => r.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual(details.requests[0]!.body);
    expect(`https://127.0.0.1:${postiz.port}${sent[0]!.path}`).toBe(details.requests[0]!.url);
    expect(sent[0]!.body).toMatchObject({ type: 'schedule', date: scheduleAt, shortLink: false, tags: [], posts: [{ integration: { id: 'int-li' }, settings: { __type: 'linkedin-page' } }, {}] });

    const pushed = await draftRow(first);
    expect(pushed).toMatchObject({ state: 'pushed', error: null });
    expect(pushed.external_id).toMatch(/^post-/);
    const listed = await t.db.selectFrom('jobs').select(['state', 'kind']).where('id', '=', queued.jobId).executeTakeFirstOrThrow();
    expect(listed).toEqual({ state: 'done', kind: 'repurpose_push' });
  });

  it('creates one post when the job died after Postiz created it and before it was recorded', async () => {
    const ws = await postizWorkspace();
    const draft = await insertRepurposeDraft(t, ws.workspaceId, { posts: ['Lost answers must not double-post & that matters.'] });
    const pushed = await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', { draftIds: [draft], channelId: 'int-li', confirm: true });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const count = () => postiz.posts.filter((p) => p.parts[0] === 'Lost answers must not double-post & that matters.').length;

    postiz.loseNextCreateAnswer = true;
    await t.jobs.drain();
    expect(count()).toBe(1);
    const waiting = await draftRow(draft);
    expect(waiting.state).toBe('queued');
    expect(waiting.external_id).toBeNull();

    t.clock.advance(10 * 60_000);
    await t.jobs.drain();
    expect(count()).toBe(1);
    const recorded = await draftRow(draft);
    expect(recorded.state).toBe('pushed');
    expect(recorded.external_id).toBe(postiz.posts.find((p) => p.parts[0]!.startsWith('Lost answers'))!.id);
  });

  it('makes a push wait for the next hour once the 30 calls of the hour are spent', async () => {
    const own = await FakePostiz.start();
    try {
      const ws = await postizWorkspace(own);
      const draft = await insertRepurposeDraft(t, ws.workspaceId);
      const pushed = await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', { draftIds: [draft], channelId: 'int-li', confirm: true });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      const limiter = t.service.services.schedulers.limits.limiter(POSTIZ_LIMIT);
      const key = postizLimitKey(own.baseUrl, FakePostiz.KEY);
      await limiter.consume(key, 30 - (await limiter.peek(key)).remaining + 30);
      const calls = own.requests.length;

      await t.jobs.drain();
      expect(own.requests.length).toBe(calls);
      const waiting = await draftRow(draft);
      expect(waiting.state).toBe('queued');
      expect(waiting.error).toContain('30 API calls an hour');
      const next = await t.db.selectFrom('jobs').selectAll().where('id', '=', waiting.push_job_id!).executeTakeFirstOrThrow();
      expect(next.state).toBe('queued');
      expect(Number(next.run_at) - t.clock.now()).toBeGreaterThan(HOUR - 5 * 60_000);

      await limiter.reset(key);
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect((await draftRow(draft)).state).toBe('pushed');
      expect(own.posts).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it("answers Postiz's own 429 as a wait until Retry-After", async () => {
    const own = await FakePostiz.start();
    try {
      own.calls.set(FakePostiz.KEY, 30);
      const scheduler = openScheduler({ tool: 'postiz', baseUrl: own.baseUrl, apiKey: FakePostiz.KEY, accountId: null }, deps());
      const refused = await scheduler.channels().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SchedulerRateLimitedError);
      expect((refused as SchedulerRateLimitedError).retryAt).toBe(t.clock.now() + HOUR);
    } finally {
      await own.close();
    }
  });
});

describe('Buffer', () => {
  const account = (overrides: Partial<SchedulerAccount> = {}): SchedulerAccount => ({ tool: 'buffer', baseUrl: buffer.baseUrl, apiKey: FakeBuffer.KEY, accountId: null, ...overrides });

  it("lists the only organization's channels, creates posts in one request as planned, and never twice for a key", async () => {
    const scheduler = openScheduler(account(), deps());
    expect(await scheduler.channels()).toEqual([
      { id: 'ch-li', name: 'Acme on LinkedIn', format: 'linkedin', platform: 'linkedin', active: true },
      { id: 'ch-x', name: 'Acme on X', format: 'x', platform: 'twitter', active: true },
    ]);
    const at = t.clock.now() + 86_400_000;
    const posts = [post('k-b1', 'ch-li', 'linkedin', ['A "quoted" LinkedIn post.\nSecond line.']), post('k-b2', 'ch-x', 'twitter', ['An X post'], at)];
    const planned = scheduler.plan(posts);
    expect(planned).toHaveLength(1);
    expect(planned[0]!.headers.authorization).toBe('Bearer <api key>');
    const before = buffer.requests.length;
    buffer.loseNextCreateAnswer = true;
    await expect(scheduler.create(posts)).rejects.toMatchObject({ transient: true });
    const mutation = buffer.requests.slice(before).find((r) => (r.body as { query: string }).query.startsWith('mutation'))!;
    expect(mutation.body).toEqual(planned[0]!.body);
    expect(buffer.posts).toHaveLength(2);
    expect(buffer.posts[0]).toMatchObject({ text: 'A "quoted" LinkedIn post.\nSecond line.', status: 'draft', dueAt: null });
    expect(buffer.posts[1]).toMatchObject({ channelId: 'ch-x', status: 'buffer', dueAt: new Date(at).toISOString() });

    const again = await scheduler.create(posts);
    expect(again.map((p) => [p.idempotencyKey, p.externalId])).toEqual([
      ['k-b1', 'bp-1'],
      ['k-b2', 'bp-2'],
    ]);
    expect(buffer.posts).toHaveLength(2);
  });

  it('maps GraphQL errors in 200 answers: authentication to SchedulerAuthError, a refused post to SchedulerError', async () => {
    await expect(openScheduler(account({ apiKey: 'wrong' }), deps()).channels()).rejects.toBeInstanceOf(SchedulerAuthError);
    const unknownOrg = await openScheduler(account({ accountId: 'org-nope' }), deps())
      .channels()
      .catch((error: unknown) => error);
    expect(unknownOrg).toBeInstanceOf(SchedulerError);
    expect((unknownOrg as SchedulerError).message).toContain('Organization not found');
    const refused = await openScheduler(account({ accountId: 'org-1' }), deps())
      .create([post('k-b3', 'ch-gone', 'linkedin', ['Nowhere to go'])])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SchedulerError);
    expect((refused as SchedulerError).message).toContain('Channel not found');
  });

  it('refuses to push a thread, naming the drafts', async () => {
    const ws = await t.workspace();
    await connectScheduler(t, t.service.services.credentials, ws.workspaceId, 'buffer', 'https://ignored.example', FakeBuffer.KEY, 'org-1');
    const thread = await insertRepurposeDraft(t, ws.workspaceId, { channel: 'x', posts: ['Part one', 'Part two'] });
    const answer = await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', { draftIds: [thread], channelId: 'ch-x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(`draftIds: Buffer's API takes single posts, not threads: ${thread} has several parts`);
  });
});

describe('Typefully', () => {
  const account: () => SchedulerAccount = () => ({ tool: 'typefully', baseUrl: typefully.baseUrl, apiKey: FakeTypefully.KEY, accountId: null });

  it('lists each platform of the social sets as a channel, creates titled drafts, and finds them again on a retry', async () => {
    const scheduler = openScheduler(account(), deps());
    expect(await scheduler.channels()).toEqual([
      { id: '111:x', name: 'acme (x)', format: 'x', platform: 'x', active: true },
      { id: '111:linkedin', name: 'Acme Inc (linkedin)', format: 'linkedin', platform: 'linkedin', active: true },
    ]);
    const at = t.clock.now() + 3 * 86_400_000;
    const thread = post('k-t1', '111:x', 'x', ['First of a thread', 'Second of a thread'], at);
    const planned = scheduler.plan([thread]);
    expect(planned[0]).toMatchObject({ method: 'POST', url: `${typefully.baseUrl}/social-sets/111/drafts`, headers: { authorization: 'Bearer <api key>' } });
    typefully.loseNextCreateAnswer = true;
    await expect(scheduler.create([thread])).rejects.toBeInstanceOf(SchedulerError);
    expect(typefully.drafts).toHaveLength(1);
    expect(typefully.drafts[0]).toMatchObject({ draft_title: 'Sightline k-t1', publish_at: new Date(at).toISOString(), platforms: { x: { enabled: true, posts: [{ text: 'First of a thread' }, { text: 'Second of a thread' }] } } });
    const again = await scheduler.create([thread]);
    expect(again).toEqual([{ idempotencyKey: 'k-t1', externalId: String(typefully.drafts[0]!.id), url: typefully.drafts[0]!.private_url }]);
    expect(typefully.drafts).toHaveLength(1);

    const draft = await scheduler.create([post('k-t2', '111:linkedin', 'linkedin', ['A LinkedIn draft'])]);
    expect(typefully.drafts).toHaveLength(2);
    expect(typefully.drafts[1]).toMatchObject({ status: 'draft', publish_at: null });
    expect(draft[0]!.externalId).toBe(String(typefully.drafts[1]!.id));
    await expect(openScheduler({ ...account(), apiKey: 'wrong' }, deps()).channels()).rejects.toBeInstanceOf(SchedulerAuthError);
  });
});

describe('push_repurpose refusals', () => {
  it('answers 400 naming the field, and 404 for another workspace’s draft', async () => {
    const ws = await postizWorkspace();
    // A key per call: the route allows 5 calls a minute per key.
    const push = async (input: Record<string, unknown>) => t.rest(await t.key(ws.workspaceId, ['write:social']), 'POST', '/api/v1/repurpose/push', input);
    const linkedin = await insertRepurposeDraft(t, ws.workspaceId);
    const xDraft = await insertRepurposeDraft(t, ws.workspaceId, { channel: 'x', posts: ['An X post'] });

    const mismatch = await push({ draftIds: [linkedin, xDraft], channelId: 'int-li' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe(`draftIds: must be drafts for the channel's format: Acme Inc takes linkedin posts, but ${xDraft} is for x`);

    const past = await push({ draftIds: [linkedin], channelId: 'int-li', scheduleAt: new Date(t.clock.now() - 1000).toISOString() });
    expect(past.body.error).toBe('scheduleAt: must be in the future');
    const far = await push({ draftIds: [linkedin], channelId: 'int-li', scheduleAt: new Date(t.clock.now() + 400 * 86_400_000).toISOString() });
    expect(far.body.error).toBe('scheduleAt: must be at most a year ahead');

    const unknown = await push({ draftIds: [linkedin], channelId: 'int-nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^channelId: is not a channel of the connected Postiz/);
    const inactive = await push({ draftIds: [xDraft], channelId: 'int-off' });
    expect(inactive.body.error).toMatch(/^channelId: Old X is disconnected or disabled in Postiz/);
    const noFormat = await push({ draftIds: [linkedin], channelId: 'int-ig' });
    expect(noFormat.body.error).toContain('takes none of the formats drafts are written for (instagram)');

    const tooLong = await insertRepurposeDraft(t, ws.workspaceId, { channel: 'x', posts: ['x'.repeat(281)] });
    const long = await push({ draftIds: [tooLong], channelId: 'int-x' });
    expect(long.body.error).toBe(`draftIds: draft ${tooLong} does not fit x: part 1 is 281 characters; x allows at most 280`);

    const posted = await insertRepurposeDraft(t, ws.workspaceId, { state: 'posted' });
    const wrongState = await push({ draftIds: [posted], channelId: 'int-li' });
    expect(wrongState.body.error).toBe(`draftIds: only drafts in state draft or failed can be pushed: ${posted} is posted`);
    const tooMany = await push({ draftIds: Array.from({ length: 21 }, () => linkedin), channelId: 'int-li' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/\bdraftIds\b/);

    const other = await postizWorkspace();
    const theirs = await insertRepurposeDraft(t, other.workspaceId);
    const foreign = await push({ draftIds: [theirs], channelId: 'int-li' });
    expect(foreign.status).toBe(404);
    expect(await draftRow(theirs)).toMatchObject({ state: 'draft', push_job_id: null });
  });

  it('fails the drafts with a reconnect note when the tool refuses the key during the push', async () => {
    const ws = await postizWorkspace();
    const draft = await insertRepurposeDraft(t, ws.workspaceId);
    expect((await t.rest(ws.key, 'POST', '/api/v1/repurpose/push', { draftIds: [draft], channelId: 'int-li', confirm: true })).status).toBe(200);
    await connectScheduler(t, t.service.services.credentials, ws.workspaceId, 'postiz', postiz.baseUrl, 'revoked-key');
    await t.jobs.drain();
    const failed = await draftRow(draft);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('Postiz refused the API key (401)');
    expect(failed.error).toContain(`reconnect the scheduling tool at /w/${ws.workspaceId}/repurpose/scheduler`);
  });
});

describe('mark_repurpose_posted', () => {
  it('moves pushed, draft and failed drafts to posted, and refuses queued and posted ones', async () => {
    const ws = await t.workspace();
    const mark = (input: Record<string, unknown>) => t.rest(ws.key, 'POST', '/api/v1/repurpose/mark-posted', input);
    const pushed = await insertRepurposeDraft(t, ws.workspaceId, { state: 'pushed' });
    const byHand = await insertRepurposeDraft(t, ws.workspaceId);
    const failed = await insertRepurposeDraft(t, ws.workspaceId, { state: 'failed' });
    const queued = await insertRepurposeDraft(t, ws.workspaceId, { state: 'queued' });

    const postedAt = new Date(t.clock.now() - 3_600_000).toISOString();
    const done = await mark({ draftId: pushed, url: 'https://www.linkedin.com/feed/update/urn:li:activity:1', postedAt });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body.data as { draft: Record<string, unknown> }).draft).toMatchObject({ draftId: pushed, state: 'posted', postedAt, postedUrl: 'https://www.linkedin.com/feed/update/urn:li:activity:1' });
    expect((await mark({ draftId: byHand })).status).toBe(200);
    expect((await draftRow(byHand)).posted_at).toBe(t.clock.now());
    expect((await mark({ draftId: failed })).status).toBe(200);

    const again = await mark({ draftId: pushed });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(`draftId: draft ${pushed} is already marked posted`);
    const waiting = await mark({ draftId: queued });
    expect(waiting.body.error).toMatch(/^draftId: draft .* is queued/);
    const future = await mark({ draftId: queued, postedAt: new Date(t.clock.now() + 60_000).toISOString() });
    expect(future.body.error).toBe('postedAt: must not be in the future');
    const badUrl = await mark({ draftId: queued, url: 'ftp://example.com/post' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toMatch(/\burl\b/);

    const other = await t.workspace();
    const theirs = await insertRepurposeDraft(t, other.workspaceId, { state: 'pushed' });
    expect((await mark({ draftId: theirs })).status).toBe(404);
    expect((await draftRow(theirs)).state).toBe('pushed');
  });
});
