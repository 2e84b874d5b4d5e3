import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteIdOf } from '../../src/analytics/counter/loaderTag.js';
import { insertPlannedArticle } from '../../src/content/articles.js';
import { recordCrawlerVisit } from '../../src/crawlers/visits.js';
import { insertCheckRun } from '../../src/visibility/checks/runs.js';
import { recordEngineAnswer } from '../../src/visibility/checks/record.js';
import { normaliseCitations } from '../../src/visibility/engines/engine.js';
import { collect } from '../analytics/support.js';
import { addQuery } from '../visibility/checks/support.js';
import { START_TIME, TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';

const PASSWORD = 'correct horse battery';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

let t: TestService;
beforeAll(async () => {
  // Visitors of the counter differ by their forwarded address.
  t = await TestService.start({ env: { TRUST_PROXY: 'loopback' } });
  t.clock.set(START_TIME);
});
afterAll(() => t.close());

interface Seeded {
  ws: TestWorkspace;
  owner: Visitor;
  member: Visitor;
}

async function visitorOf(ws: TestWorkspace, role: 'owner' | 'member'): Promise<Visitor> {
  const email = `${role}-${ws.workspaceId}@acme.example`;
  await t.user(ws.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, PASSWORD);
  return visitor;
}

/** A workspace whose counter saw three page views (one referred by Perplexity) and two leads, and one AI-crawler visit. */
async function seeded(): Promise<Seeded> {
  const ws = await t.workspace();
  const site = await siteIdOf(t.db, ws.workspaceId);
  const page = (path: string) => `https://acme.example${path}`;
  await collect(t.baseUrl, { s: site, t: 'pageview', u: page('/blog/guide'), r: 'https://www.perplexity.ai/' }, { ip: '198.51.100.40' });
  await collect(t.baseUrl, { s: site, t: 'pageview', u: page('/blog/guide') }, { ip: '198.51.100.41' });
  await collect(t.baseUrl, { s: site, t: 'pageview', u: page('/pricing') }, { ip: '198.51.100.41' });
  await t.service.counterIngest.flush();
  for (const [fields, ip] of [
    [{ email: 'ann@example.com', company: 'Ann Co' }, '198.51.100.40'],
    [{ email: 'bo@example.com' }, '198.51.100.41'],
  ] as const) {
    // A minute apart, so newest first is one order on every database.
    t.clock.advance(60_000);
    await collect(t.baseUrl, { s: site, t: 'lead', u: page('/contact'), f: fields }, { ip });
    await t.service.counterIngest.flush();
  }
  await recordCrawlerVisit(t.db, t.clock, ws.workspaceId, { userAgent: GPTBOT, path: '/blog/guide' });
  return { ws, owner: await visitorOf(ws, 'owner'), member: await visitorOf(ws, 'member') };
}

async function pageOf(visitor: Visitor, path: string): Promise<{ status: number; text: string }> {
  const answer = await visitor.request(path);
  return { status: answer.status, text: await answer.text() };
}

/** The hidden fields of one form of a page, found by its id: what its button posts. */
function formFields(page: string, id: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*id="${id}"[\\s\\S]*?</form>`).exec(page);
  if (form === null) throw new Error(`no form ${id} on the page`);
  return hiddenFields(form[0]);
}

async function activate(visitor: Visitor, workspaceId: string, pagePath: string): Promise<void> {
  const page = (await pageOf(visitor, pagePath)).text;
  const answer = await visitor.request(`/w/${workspaceId}/do/activate_analytics_screen`, { method: 'POST', form: formFields(page, 'activate') });
  expect(answer.status).toBe(303);
  expect(answer.headers.get('location')).toBe(`${pagePath}${pagePath.includes('?') ? '&' : '?'}done=activate_analytics_screen`);
}

describe('the Analytics pages', () => {
  let s: Seeded;
  beforeAll(async () => {
    s = await seeded();
  });
  const at = (path: string) => `/w/${s.ws.workspaceId}/${path}`;

  it('Traffic: off until an owner activates it from the page, then the counter’s chart, sources and crawlers', async () => {
    const before = await pageOf(s.member, at('analytics'));
    expect(before.status).toBe(200);
    expect(before.text).toContain('id="inactive"');
    expect(before.text).toContain('An owner of this workspace can activate it.');
    expect(before.text).not.toContain('id="activate"');

    await activate(s.owner, s.ws.workspaceId, at('analytics?days=7'));
    for (const visitor of [s.owner, s.member]) {
      const after = await pageOf(visitor, at('analytics?days=7'));
      expect(after.status).toBe(200);
      expect(after.text).not.toContain('id="inactive"');
      expect(after.text).toContain('<h1>Traffic</h1>');
      expect(after.text).toMatch(/<div>Page views<\/div><div class="figure">3<\/div>/);
      expect(after.text).toContain('id="traffic-chart-table"');
      expect(after.text).toContain('ai: perplexity');
      expect(after.text).toContain('/pricing');
      expect(after.text).toContain('GPTBot (OpenAI)');
      expect(after.text).toContain('<option value="7" selected>');
    }
    // Ninety days are drawn as weeks.
    const quarter = await pageOf(s.member, at('analytics?days=90'));
    expect(quarter.text).toContain('Week starting');
  });

  it('Traffic: a window the operation refuses shows its 400; an unconnected provider says what to connect', async () => {
    const bad = await pageOf(s.member, at('analytics?days=14'));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('days: must be one of 7, 30, 90');
    expect(bad.text).toContain('id="window"');
    const site = await pageOf(s.owner, at('analytics?scope=site'));
    expect(site.status).toBe(400);
    expect(site.text).toContain('connect Plausible, Umami or Google Analytics');
    expect(site.text).toContain(`href="/w/${s.ws.workspaceId}/settings#site-analytics"`);
  });

  it('Engagement: each published article with its views, for owner and member', async () => {
    const id = await insertPlannedArticle(t.db, t.clock, { workspaceId: s.ws.workspaceId, keyword: 'guide', title: 'The guide', scheduledAt: t.clock.now(), language: 'en' });
    await t.db.updateTable('articles').set({ status: 'published', published_at: t.clock.now(), url: 'https://acme.example/blog/guide' }).where('id', '=', id).execute();
    for (const visitor of [s.owner, s.member]) {
      const page = await pageOf(visitor, at('analytics/engagement'));
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/<td><a href="https:\/\/acme.example\/blog\/guide">The guide<\/a><\/td><td>\/blog\/guide<\/td><td class="num">2<\/td>/);
      expect(page.text).toContain('id="views-chart-table"');
    }
  });

  it('Sources: the tag and the crawler sources; an owner switches to a source the setup qualifies for', async () => {
    await recordCrawlerVisit(t.db, t.clock, s.ws.workspaceId, { userAgent: GPTBOT, path: '/from-plugin', plugin: 'wordpress/1.4.2' });
    const member = await pageOf(s.member, at('analytics/sources'));
    expect(member.status).toBe(200);
    expect(member.text).toContain('id="tracking-tag"');
    expect(member.text).toContain('available; an owner can choose it');
    const owner = await pageOf(s.owner, at('analytics/sources'));
    const choose = /<form[^>]*action="[^"]*\/do\/set_analytics_source"[\s\S]*?<\/form>/.exec(owner.text);
    expect(choose).not.toBeNull();
    const answer = await s.owner.request(at('do/set_analytics_source'), { method: 'POST', form: hiddenFields(choose![0]) });
    expect(answer.status).toBe(303);
    const row = await t.db.selectFrom('analytics_sites').select('crawler_source').where('workspace_id', '=', s.ws.workspaceId).executeTakeFirstOrThrow();
    expect(row.crawler_source).toBe('cms_plugin');
    expect((await pageOf(s.owner, answer.headers.get('location')!)).text).toContain('<strong id="crawler-selected">CMS plugin</strong>');
  });

  it('Reports: off until activated, then the summary with intervals and the wins; a bad window shows the 400', async () => {
    expect((await pageOf(s.owner, at('analytics/reports'))).text).toContain('id="activate"');
    // Two answers, one naming the brand: a visibility score with its interval.
    const queryId = await addQuery(t, s.ws, 'best analytics');
    const runId = await insertCheckRun(t.db, t.clock, { workspaceId: s.ws.workspaceId, trigger: 'schedule', engines: ['chatgpt'], runsPerQuery: 2, planned: 2 });
    for (const [runIndex, text] of [
      [1, 'Acme Analytics is a good choice.'],
      [2, 'Try another tool.'],
    ] as const) {
      const answer = { text, citations: normaliseCitations([]), model: 'm', latencyMs: 1 };
      await recordEngineAnswer(t.db, t.clock, { workspaceId: s.ws.workspaceId, runId, queryId, engine: 'chatgpt', runIndex, answer, error: null });
    }
    await activate(s.owner, s.ws.workspaceId, at('analytics/reports'));
    for (const visitor of [s.owner, s.member]) {
      const page = await pageOf(visitor, at('analytics/reports?days=7'));
      expect(page.status).toBe(200);
      expect(page.text).toContain('id="narrative"');
      expect(page.text).toContain('2 leads, 1 from AI answers.');
      // This window's score with its interval as a whisker; the window before had none, so no bar.
      expect(page.text).toContain('<line class="whisker"');
      expect(page.text).toMatch(/<tbody><tr><td>This window<\/td><td class="num">[\d.]+<\/td><td class="num">[\d.]+ – [\d.]+<\/td><\/tr><\/tbody>/);
      expect(page.text).toContain('id="new-referrers"');
    }
    const bad = await pageOf(s.member, at('analytics/reports?days=1'));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('days: must be one of 7, 30, 90');
  });

  it('Leads: newest first, a page at a time, for a member too; a page number out of range shows the 400', async () => {
    const first = await pageOf(s.member, at('analytics/leads?limit=1'));
    expect(first.status).toBe(200);
    expect(first.text).toContain('bo@example.com');
    expect(first.text).not.toContain('ann@example.com');
    expect(first.text).toContain('Page 1 of 2, 2 leads.');
    const older = /<a href="([^"]+)">Older leads<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await pageOf(s.member, older);
    expect(second.text).toContain('ann@example.com');
    expect(second.text).toContain('company: Ann Co');
    expect(second.text).toContain('ai (perplexity)');
    const bad = await pageOf(s.owner, at('analytics/leads?page=0'));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('page: ');
  });
});
