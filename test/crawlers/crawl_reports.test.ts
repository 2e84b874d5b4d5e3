import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS_PER_ADDRESS_PER_MINUTE, REPORTS_PER_WORKSPACE_PER_MINUTE } from '../../adapters/crawlReports.js';
import { newId } from '../../src/ids.js';
import { randomToken, sha256Hex } from '../../src/secrets.js';
import { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { insertPublishedArticle } from '../links/support.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

const UA = {
  gptBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  claudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  perplexityBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  oaiSearchBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  chatGptUser: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  baiduspider: 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
  unknown: 'Mozilla/5.0 (X11; Linux x86_64) HomeGrownFetcher/0.3',
};

/** A destination of the workspace with a known signing secret, as create_destination leaves it. */
async function destination(workspaceId: string, removed = false): Promise<string> {
  const secret = randomToken();
  await t.db
    .insertInto('destinations')
    .values({
      id: newId('dst'),
      workspace_id: workspaceId,
      name: 'Blog',
      endpoint_url: 'https://receiver.example/hook',
      site_url: 'https://acme.example',
      publish_as: 'publish',
      signing_secret: secret,
      secret_hash: sha256Hex(secret),
      active: 1,
      last_delivery_at: null,
      last_outcome: null,
      last_status_code: null,
      last_url: null,
      last_message: null,
      created_at: t.clock.now(),
      removed_at: removed ? t.clock.now() : null,
    })
    .execute();
  return secret;
}

async function report(key: string | undefined, body: unknown, contentType = 'application/json', plugin?: string) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (key !== undefined) headers['x-service-key'] = key;
  if (plugin !== undefined) headers['x-sightline-plugin'] = plugin;
  const response = await fetch(new URL('/api/site/crawl', t.baseUrl), { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const visits = (workspaceId: string) =>
  t.db.selectFrom('crawler_visits').select(['path', 'article_id', 'user_agent', 'crawler', 'category', 'operator', 'visited_at']).where('workspace_id', '=', workspaceId).execute();

describe('POST /api/site/crawl: authentication', () => {
  it('takes the signing secret of one of the workspace destinations, and stores the visit for that workspace', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    const answer = await report(key, { user_agent: UA.gptBot, path: '/blog/x' });
    expect(answer).toEqual({ status: 200, body: { ok: true, crawler: 'GPTBot', category: 'training', articleId: null } });
    expect(await visits(ws.workspaceId)).toEqual([
      { path: '/blog/x', article_id: null, user_agent: UA.gptBot, crawler: 'GPTBot', category: 'training', operator: 'OpenAI', visited_at: t.clock.now() },
    ]);
  });

  it('answers 401 without a key, with an unknown key, or with the key of a removed destination, and stores nothing', async () => {
    const ws = await t.workspace();
    const removed = await destination(ws.workspaceId, true);
    const before = await snapshot(t.db);
    for (const key of [undefined, 'not-a-secret', removed]) {
      const answer = await report(key, { user_agent: UA.gptBot, path: '/' });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'x-service-key: missing or not the signing secret of a destination' });
    }
    expect(await snapshot(t.db)).toEqual(before);
  });
});

describe('POST /api/site/crawl: test calls and bad input', () => {
  it('stores nothing for a test call', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    const before = await snapshot(t.db);
    expect(await report(key, { user_agent: UA.gptBot, path: '/', test: true })).toEqual({ status: 200, body: { ok: true, test: true } });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('answers 400 naming the field, and stores nothing', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    const before = await snapshot(t.db);
    const cases: Array<[unknown, string]> = [
      [{ path: '/' }, 'user_agent: is required'],
      [{ user_agent: UA.gptBot }, 'path: is required'],
      [{ user_agent: UA.gptBot, path: 'blog/x' }, 'path: must start with /'],
      [{ user_agent: 'x'.repeat(1001), path: '/' }, 'user_agent: must have at most 1000 characters'],
      [{ user_agent: UA.gptBot, path: `/${'a'.repeat(2048)}` }, 'path: must have at most 2048 characters'],
      [{ user_agent: UA.gptBot, path: '/', test: 'yes' }, 'test: must be true or false'],
      [{ user_agent: UA.gptBot, path: '/', extra: 1 }, 'extra: is not a field of this operation'],
    ];
    for (const [body, error] of cases) expect(await report(key, body)).toEqual({ status: 400, body: { error } });
    expect((await report(key, '{not json')).status).toBe(400);
    expect(await report(key, { user_agent: 'x'.repeat(9000), path: '/' })).toEqual({ status: 413, body: { error: 'body: larger than the 8kb limit' } });
    expect(await snapshot(t.db)).toEqual(before);
  });
});

describe('POST /api/site/crawl: the CMS plugin', () => {
  it('keeps its reports apart from the serving code and notes its version; a malformed version is refused', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    const before = await snapshot(t.db);
    expect(await report(key, { user_agent: UA.gptBot, path: '/' }, 'application/json', 'wordpress 1.4')).toEqual({
      status: 400,
      body: { error: 'x-sightline-plugin: must be the plugin name and version, as wordpress/1.4.2' },
    });
    expect(await snapshot(t.db)).toEqual(before);
    expect((await report(key, { user_agent: UA.gptBot, path: '/a' }, 'application/json', 'wordpress/1.4.2')).status).toBe(200);
    expect((await report(key, { user_agent: UA.claudeBot, path: '/b' })).status).toBe(200);
    const stored = await t.db.selectFrom('crawler_visits').select(['path', 'reporter']).where('workspace_id', '=', ws.workspaceId).orderBy('path').execute();
    expect(stored).toEqual([
      { path: '/a', reporter: 'cms_plugin' },
      { path: '/b', reporter: 'site_hook' },
    ]);
    const site = await t.db.selectFrom('analytics_sites').select('cms_plugin_version').where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
    expect(site.cms_plugin_version).toBe('wordpress/1.4.2');
  });
});

describe('POST /api/site/crawl: classification', () => {
  it.each([
    ['GPTBot', UA.gptBot, 'GPTBot', 'training'],
    ['ClaudeBot', UA.claudeBot, 'ClaudeBot', 'training'],
    ['PerplexityBot', UA.perplexityBot, 'PerplexityBot', 'search_index'],
    ['OAI-SearchBot', UA.oaiSearchBot, 'OAI-SearchBot', 'search_index'],
    ['ChatGPT-User', UA.chatGptUser, 'ChatGPT-User', 'assistant_fetch'],
    ['Googlebot', UA.googlebot, 'Googlebot', 'search_engine'],
    ['Baiduspider (not the ai.robots.txt token Spider)', UA.baiduspider, 'Baiduspider', 'search_engine'],
    ['an agent on no list', UA.unknown, 'unknown', 'other'],
  ])('classifies %s', async (_name, userAgent, crawler, category) => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    expect((await report(key, { user_agent: userAgent, path: '/' })).body).toEqual({ ok: true, crawler, category, articleId: null });
    expect(await visits(ws.workspaceId)).toMatchObject([{ crawler, category }]);
  });
});

describe('POST /api/site/crawl: the article at the path', () => {
  it('matches the article whose returned URL has the path, including a path the receiver renamed', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    // Suggested slug "how-to-choose-a-crm-for-startups"; the receiver published it at /blog/renamed-x.
    const renamed = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'https://acme.example/blog/renamed-x');
    for (const path of ['/blog/renamed-x', '/blog/renamed-x/', '/blog/renamed-x?utm_source=chatgpt.com']) {
      expect((await report(key, { user_agent: UA.chatGptUser, path })).body.articleId).toBe(renamed);
    }
    expect((await report(key, { user_agent: UA.chatGptUser, path: '/renamed-x' })).body.articleId).toBeNull();
  });

  it('falls back to a published article whose slug is the last path segment', async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    const addressless = await insertPublishedArticle(t.db, t.clock, ws.workspaceId, 'unused', { url: null, title: 'Sales email templates' });
    expect((await report(key, { user_agent: UA.gptBot, path: '/posts/sales-email-templates' })).body.articleId).toBe(addressless);
  });

  it("never matches another workspace's article", async () => {
    const ws = await t.workspace();
    const other = await t.workspace({ site: 'https://other.example' });
    const key = await destination(ws.workspaceId);
    await insertPublishedArticle(t.db, t.clock, other.workspaceId, 'https://other.example/blog/theirs', { title: 'Theirs' });
    expect((await report(key, { user_agent: UA.gptBot, path: '/blog/theirs' })).body.articleId).toBeNull();
  });
});

describe('POST /api/site/crawl: rate limits', () => {
  it(`refuses more than ${REFUSALS_PER_ADDRESS_PER_MINUTE} calls a minute without a valid key from one address`, async () => {
    const service = await TestService.start();
    try {
      const call = () => fetch(new URL('/api/site/crawl', service.baseUrl), { method: 'POST', headers: { 'x-service-key': 'wrong', 'content-type': 'application/json' }, body: '{}' });
      for (let i = 0; i < REFUSALS_PER_ADDRESS_PER_MINUTE; i++) expect((await call()).status).toBe(401);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await service.close();
    }
  });

  it(`takes at most ${REPORTS_PER_WORKSPACE_PER_MINUTE} reports a minute per workspace`, async () => {
    const ws = await t.workspace();
    const key = await destination(ws.workspaceId);
    for (let i = 0; i < REPORTS_PER_WORKSPACE_PER_MINUTE; i++) await report(key, { user_agent: UA.gptBot, path: '/', test: true });
    expect((await report(key, { user_agent: UA.gptBot, path: '/' })).status).toBe(429);
    const other = await t.workspace();
    expect((await report(await destination(other.workspaceId), { user_agent: UA.gptBot, path: '/' })).status).toBe(200);
  });
});
