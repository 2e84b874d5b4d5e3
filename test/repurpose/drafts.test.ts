import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RepurposeChannel, RepurposeState } from '../../db/schema.js';
import { classifyVisitSource, SOCIAL_NETWORKS } from '../../src/analytics/referrers.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { ALL_SCOPES } from '../../src/scopes.js';
import { CHANNEL_FORMS, REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import type { ChatRequest } from '../integrations/fakes/openai.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';

let t: TestService;
let ws: TestWorkspace;

beforeAll(async () => {
  t = await TestService.start();
});

afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  t.writer.reset();
  ws = await t.workspace();
});

interface Draft {
  draftId: string;
  contentId: string;
  articleTitle: string;
  channel: RepurposeChannel;
  posts: string[];
  limits: { maxParts: number; maxChars: number };
  linkUrl: string;
  state: RepurposeState;
}

interface DraftList {
  page: number;
  limit: number;
  total: number;
  nextPage: number | null;
  drafts: Draft[];
}

async function article(workspace: TestWorkspace, options: { status?: 'draft' | 'published'; url?: string | null } = {}): Promise<string> {
  const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: workspace.workspaceId, keyword: 'crm for dentists', title: 'How to pick a CRM for dentists', scheduledAt: t.clock.now(), language: 'en' });
  const published = (options.status ?? 'published') === 'published';
  await t.db
    .updateTable('articles')
    .set({
      status: options.status ?? 'published',
      markdown: '# CRM for dentists\n\nPick one that books appointments and sends recall reminders.',
      word_count: 9,
      written_at: t.clock.now(),
      published_at: published ? t.clock.now() : null,
      url: options.url === undefined ? (published ? 'https://acme.example/blog/crm-for-dentists' : null) : options.url,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

const slugOf = async (contentId: string) => (await t.db.selectFrom('articles').select('slug').where('id', '=', contentId).executeTakeFirstOrThrow()).slug;

/** The writer's answer: the given parts per requested channel, a short one for the others. */
function answerWith(parts: Partial<Record<RepurposeChannel, string[]>>) {
  return (request: ChatRequest) => {
    const requested = Object.keys((request.response_format!.json_schema!.schema.properties as { drafts: { properties: Record<string, unknown> } }).drafts.properties) as RepurposeChannel[];
    return { drafts: Object.fromEntries(requested.map((channel) => [channel, parts[channel] ?? [`Dentists lose hours to phone booking (${channel}).`]])) };
  };
}

/** A key per call: the route allows 5 calls a minute per key, and some tests make more. */
const generate = async (workspace: TestWorkspace, body: Record<string, unknown>, key?: string) =>
  t.rest(key ?? (await t.key(workspace.workspaceId, ALL_SCOPES)), 'POST', '/api/v1/repurpose/generate', body);

async function generated(workspace: TestWorkspace, body: Record<string, unknown>): Promise<Draft[]> {
  const answer = await generate(workspace, { ...body, confirm: true });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.data as { drafts: Draft[] }).drafts;
}

async function list(workspace: TestWorkspace, query: Record<string, unknown> = {}): Promise<DraftList> {
  const answer = await t.rest(workspace.key, 'GET', '/api/v1/repurpose', query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as DraftList;
}

const edit = (workspace: TestWorkspace, body: Record<string, unknown>) => t.rest(workspace.key, 'POST', '/api/v1/repurpose/draft', body);

describe('generate_repurpose', () => {
  it("drafts every channel in one writer call steered by brand memory, each ending with the article's tagged link", async () => {
    expect((await t.rest(ws.key, 'POST', '/api/v1/brand/guidelines', { type: 'tone', avoid: 'synergy', instead: 'plain words' })).status).toBe(200);
    expect((await t.rest(ws.key, 'POST', '/api/v1/brand/profile', { tone: 'friendly' })).status).toBe(200);
    const contentId = await article(ws);
    t.writer.answer('repurpose_drafts', answerWith({ x: ['Phone booking costs a dental practice hours a week.', 'A CRM that books and reminds gives them back.'] }));
    const drafts = await generated(ws, { contentId, channels: [...REPURPOSE_CHANNELS], instructions: 'Stress recall reminders.' });

    expect(t.writer.requests).toHaveLength(1);
    const prompt = t.writer.lastPrompt();
    expect(prompt).toContain('# Brand memory');
    expect(prompt).toContain('synergy');
    expect(prompt).toContain('Tone: friendly');
    expect(prompt).toContain('Pick one that books appointments');
    expect(prompt).toContain('Stress recall reminders.');
    expect(prompt).toContain('each part at most 280 characters');

    const slug = await slugOf(contentId);
    expect(drafts.map((d) => d.channel)).toEqual([...REPURPOSE_CHANNELS]);
    for (const draft of drafts) {
      const link = new URL(draft.linkUrl);
      expect(`${link.origin}${link.pathname}`).toBe('https://acme.example/blog/crm-for-dentists');
      expect(Object.fromEntries(link.searchParams)).toEqual({ utm_source: CHANNEL_FORMS[draft.channel].utmSource, utm_medium: CHANNEL_FORMS[draft.channel].utmMedium, utm_campaign: slug });
      expect(draft.posts.at(-1)!.endsWith(`\n\n${draft.linkUrl}`)).toBe(true);
      expect(draft.posts.slice(0, -1).join('')).not.toContain(draft.linkUrl);
      expect(draft).toMatchObject({ contentId, articleTitle: 'How to pick a CRM for dentists', state: 'draft', limits: { maxParts: CHANNEL_FORMS[draft.channel].maxParts, maxChars: CHANNEL_FORMS[draft.channel].maxChars } });
    }
    expect(drafts.find((d) => d.channel === 'x')!.posts).toEqual(['Phone booking costs a dental practice hours a week.', `A CRM that books and reminds gives them back.\n\n${drafts.find((d) => d.channel === 'x')!.linkUrl}`]);
    expect((await list(ws)).total).toBe(REPURPOSE_CHANNELS.length);
  });

  it("tags links the traffic classification attributes to the channel's social network (the newsletter's as other, not direct)", async () => {
    const contentId = await article(ws);
    const drafts = await generated(ws, { contentId, channels: [...REPURPOSE_CHANNELS] });
    for (const draft of drafts) {
      const params = new URL(draft.linkUrl).searchParams;
      const visit = classifyVisitSource({ referrer: null, utmSource: params.get('utm_source'), utmMedium: params.get('utm_medium'), siteHost: 'acme.example' });
      if (draft.channel === 'newsletter') {
        expect(params.get('utm_medium')).toBe('email');
        expect(visit.source).toBe('other');
        continue;
      }
      expect(visit.source, draft.channel).toBe('social');
      // The utm_source is the network's own name in the classification's list, not just any social-looking tag.
      expect(SOCIAL_NETWORKS.map((network) => network.name)).toContain(params.get('utm_source'));
    }
  });

  it('asks once more for only the drafts over their limit, stating the problem, and stores the rewrite', async () => {
    const contentId = await article(ws);
    t.writer.reply({ content: { drafts: { bluesky: ['x'.repeat(301)], linkedin: ['A fine LinkedIn post.'] } } }, { content: { drafts: { bluesky: ['Dentists: a CRM that books for you.'] } } });
    const drafts = await generated(ws, { contentId, channels: ['bluesky', 'linkedin'] });

    expect(t.writer.requests).toHaveLength(2);
    const retry = t.writer.lastPrompt();
    expect(retry).toContain('Problem: part 1 is');
    expect(retry).toContain('bluesky allows at most 300');
    expect(retry).not.toContain('Pick one that books appointments');
    expect(Object.keys((t.writer.requests[1]!.response_format!.json_schema!.schema.properties as { drafts: { properties: object } }).drafts.properties)).toEqual(['bluesky']);
    const bluesky = drafts.find((d) => d.channel === 'bluesky')!;
    expect(bluesky.posts).toEqual([`Dentists: a CRM that books for you.\n\n${bluesky.linkUrl}`]);
    expect(drafts.find((d) => d.channel === 'linkedin')!.posts[0]).toMatch(/^A fine LinkedIn post\./);
  });

  it('refuses with a clear error and stores nothing when the rewrite is still over the limit', async () => {
    const contentId = await article(ws);
    const tooLong = { content: { drafts: { x: ['y'.repeat(300)] } } };
    t.writer.reply(tooLong, tooLong);
    const key = await t.key(ws.workspaceId, ALL_SCOPES);
    const before = await snapshot(t.db);
    const answer = await generate(ws, { contentId, channels: ['x'], confirm: true }, key);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/x draft broke the channel's limits twice \(part 1 is \d+ characters; x allows at most 280\); nothing was stored/);
    expect(t.writer.requests).toHaveLength(2);
    expect((await list(ws)).total).toBe(0);
    // Only the writer ledger moved.
    const after = await snapshot(t.db);
    expect({ ...after, writer_usage: [] }).toEqual({ ...before, writer_usage: [] });
  });

  it('dry run names the article, the channels and their tagged links, and changes nothing', async () => {
    const contentId = await article(ws);
    const key = await t.key(ws.workspaceId, ALL_SCOPES);
    const before = await snapshot(t.db);
    const answer = await generate(ws, { contentId, channels: ['x', 'newsletter'] }, key);
    expect(answer.status).toBe(200);
    const data = answer.body.data as { dryRun: boolean; note: string; drafts: number; article: Record<string, unknown>; channels: Array<{ channel: string; linkUrl: string }> };
    expect(data.dryRun).toBe(true);
    expect(data.note).toContain('Would draft 2 posts (x, newsletter) from "How to pick a CRM for dentists"');
    expect(data.drafts).toBe(2);
    expect(data.article).toEqual({ contentId, title: 'How to pick a CRM for dentists', url: 'https://acme.example/blog/crm-for-dentists' });
    const slug = await slugOf(contentId);
    expect(data.channels).toEqual([
      { channel: 'x', maxParts: 10, maxChars: 280, linkUrl: `https://acme.example/blog/crm-for-dentists?utm_source=x&utm_medium=social&utm_campaign=${slug}` },
      { channel: 'newsletter', maxParts: 1, maxChars: 1000, linkUrl: `https://acme.example/blog/crm-for-dentists?utm_source=newsletter&utm_medium=email&utm_campaign=${slug}` },
    ]);
    expect(t.writer.requests).toHaveLength(0);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('400s naming the field: an unpublished article, no live URL, bad or repeated channels, long instructions', async () => {
    const draftArticle = await article(ws, { status: 'draft' });
    const noUrl = await article(ws, { url: null });
    const published = await article(ws);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ contentId: draftArticle, channels: ['x'] }, /^contentId: must be a published article with a live URL; this one is draft$/],
      [{ contentId: noUrl, channels: ['x'] }, /^contentId: .*published without a live URL yet/],
      [{ contentId: published, channels: [] }, /channels/],
      [{ contentId: published, channels: ['x', 'x'] }, /channels.*must not repeat a channel/],
      [{ contentId: published, channels: ['myspace'] }, /channels/],
      [{ contentId: published, channels: ['x'], instructions: 'a'.repeat(1001) }, /instructions/],
    ];
    for (const [body, error] of cases) {
      for (const confirm of [false, true]) {
        const answer = await generate(ws, { ...body, confirm });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.error).toMatch(error);
      }
    }
    expect(t.writer.requests).toHaveLength(0);
  });

  it("answers 404 for another workspace's article, dry run or not", async () => {
    const other = await t.workspace();
    const contentId = await article(other);
    for (const confirm of [false, true]) expect((await generate(ws, { contentId, channels: ['x'], confirm })).status).toBe(404);
  });

  it('answers 400 naming the settings when no writer model is configured', async () => {
    const bare = await TestService.start({ writer: false });
    try {
      const workspace = await bare.workspace();
      const id = await insertPlannedArticle(bare.db, bare.clock, { workspaceId: workspace.workspaceId, keyword: 'crm', title: 'CRM', scheduledAt: bare.clock.now(), language: 'en' });
      await bare.db.updateTable('articles').set({ status: 'published', url: 'https://acme.example/crm' }).where('id', '=', id).execute();
      const answer = await bare.rest(workspace.key, 'POST', '/api/v1/repurpose/generate', { contentId: id, channels: ['x'], confirm: true });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('WRITER_BASE_URL');
    } finally {
      await bare.close();
    }
  });
});

describe('list_repurpose', () => {
  it('lists newest first, filters by state, article and channel, and pages', async () => {
    const first = await article(ws);
    const second = await article(ws);
    await generated(ws, { contentId: first, channels: ['x', 'linkedin'] });
    t.clock.advance(60_000);
    const later = await generated(ws, { contentId: second, channels: ['x', 'bluesky', 'mastodon'] });
    await t.db.updateTable('repurpose_drafts').set({ state: 'posted' }).where('id', '=', later[0]!.draftId).execute();

    const all = await list(ws);
    expect(all).toMatchObject({ page: 1, limit: 50, total: 5, nextPage: null });
    expect(all.drafts.slice(0, 3).every((d) => d.contentId === second)).toBe(true);
    expect(all.drafts.slice(3).every((d) => d.contentId === first)).toBe(true);

    expect((await list(ws, { contentId: first })).drafts.map((d) => d.channel).sort()).toEqual(['linkedin', 'x']);
    expect((await list(ws, { channel: 'x' })).total).toBe(2);
    expect((await list(ws, { state: 'posted' })).drafts.map((d) => d.draftId)).toEqual([later[0]!.draftId]);
    expect((await list(ws, { state: 'draft', channel: 'x' })).drafts.map((d) => d.contentId)).toEqual([first]);

    const page1 = await list(ws, { limit: 2 });
    const page3 = await list(ws, { limit: 2, page: 3 });
    expect(page1).toMatchObject({ total: 5, nextPage: 2 });
    expect(page3).toMatchObject({ total: 5, nextPage: null });
    expect(page3.drafts).toHaveLength(1);
    const ids = [...page1.drafts, ...(await list(ws, { limit: 2, page: 2 })).drafts, ...page3.drafts].map((d) => d.draftId);
    expect(ids).toEqual(all.drafts.map((d) => d.draftId));
  });

  it("never shows another workspace's drafts, and 400s naming a bad filter", async () => {
    const other = await t.workspace();
    await generated(other, { contentId: await article(other), channels: ['x'] });
    expect((await list(ws)).total).toBe(0);
    expect((await t.rest(ws.key, 'GET', '/api/v1/repurpose', { contentId: await article(other) })).status).toBe(404);
    const bad = await t.rest(ws.key, 'GET', '/api/v1/repurpose', { state: 'sent' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/\bstate\b/);
  });
});

describe('update_repurpose_draft', () => {
  it("replaces the parts within the channel's limits and answers the draft", async () => {
    const [draft] = await generated(ws, { contentId: await article(ws), channels: ['bluesky'] });
    t.clock.advance(1_000);
    const posts = ['Dentists spend hours on phone booking. 🦷🦷🦷', `A CRM fixes it.\n\n${draft!.linkUrl}`];
    const answer = await edit(ws, { draftId: draft!.draftId, posts });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ draftId: draft!.draftId, posts, state: 'draft' });
    expect((answer.body.data as { updatedAt: string }).updatedAt).not.toBe((answer.body.data as { createdAt: string }).createdAt);
    expect((await list(ws)).drafts[0]!.posts).toEqual(posts);
  });

  it('counts Bluesky in graphemes: 300 emoji fit, 301 do not, and the 400 names posts and the rule', async () => {
    const [draft] = await generated(ws, { contentId: await article(ws), channels: ['bluesky'] });
    expect((await edit(ws, { draftId: draft!.draftId, posts: ['👩‍⚕️'.repeat(300)] })).status).toBe(200);
    const over = await edit(ws, { draftId: draft!.draftId, posts: ['ok', 'a'.repeat(312)] });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('posts: part 2 is 312 characters; bluesky allows at most 300');
  });

  it('refuses more parts than the channel takes, empty parts, and more than 10 parts, naming posts', async () => {
    const drafts = await generated(ws, { contentId: await article(ws), channels: ['linkedin', 'x'] });
    const linkedin = drafts.find((d) => d.channel === 'linkedin')!;
    const x = drafts.find((d) => d.channel === 'x')!;
    const before = await snapshot(t.db);
    const cases: Array<[string, unknown, string | RegExp]> = [
      [linkedin.draftId, ['one', 'two'], 'posts: must be one post for linkedin, got 2 parts'],
      [x.draftId, ['fine', '   '], 'posts: part 2 is empty'],
      [x.draftId, Array.from({ length: 11 }, () => 'part'), /^posts\b/],
      [x.draftId, [], /^posts\b/],
    ];
    for (const [draftId, posts, error] of cases) {
      const answer = await edit(ws, { draftId, posts });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(error);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('edits drafts in state draft or failed only, naming the state otherwise', async () => {
    const drafts = await generated(ws, { contentId: await article(ws), channels: ['x', 'threads', 'mastodon'] });
    const [pushed, failed] = drafts;
    await t.db.updateTable('repurpose_drafts').set({ state: 'pushed' }).where('id', '=', pushed!.draftId).execute();
    await t.db.updateTable('repurpose_drafts').set({ state: 'failed', error: 'the scheduler refused it' }).where('id', '=', failed!.draftId).execute();
    const refused = await edit(ws, { draftId: pushed!.draftId, posts: ['New text'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('draftId: the draft is pushed; only drafts in state draft or failed can be edited');
    const fixed = await edit(ws, { draftId: failed!.draftId, posts: ['Shorter text'] });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({ posts: ['Shorter text'], state: 'failed' });
  });

  it("answers 404 for another workspace's draft and changes nothing", async () => {
    const other = await t.workspace();
    const [draft] = await generated(other, { contentId: await article(other), channels: ['x'] });
    const answer = await edit(ws, { draftId: draft!.draftId, posts: ['Hijacked'] });
    expect(answer.status).toBe(404);
    expect((await list(other)).drafts[0]!.posts).toEqual(draft!.posts);
  });
});
