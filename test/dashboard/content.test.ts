import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { hiddenFields, Visitor } from '../support/visitor.js';
import { article, at, commit, markWritten, ok } from '../content/calendarSupport.js';
import { addQuery } from '../../src/content/queries.js';

const PASSWORD = 'correct horse battery';
let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

async function signedIn(role: 'owner' | 'member', ws?: TestWorkspace): Promise<{ ws: TestWorkspace; visitor: Visitor; csrf: string }> {
  const workspace = ws ?? (await t.workspace());
  const email = `${role}-${workspace.workspaceId}@acme.example`;
  await t.user(workspace.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, PASSWORD);
  return { ws: workspace, visitor, csrf: await visitor.csrf(`/w/${workspace.workspaceId}/keys`) };
}

async function page(visitor: Visitor, path: string): Promise<string> {
  const answer = await visitor.request(path);
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The cell of one day in the calendar's month view. */
function dayCell(html: string, day: string): string {
  const cell = new RegExp(`<td id="day-${day}">(.*?)</td>`, 's').exec(html);
  expect(cell, `no cell for ${day}`).not.toBeNull();
  return cell![1]!;
}

/** A written article (a draft) with a destination to publish it to. */
async function draftToPublish(ws: TestWorkspace): Promise<string> {
  const [planned] = (await commit(t, ws, 1, 'Dental CRM')).planned;
  await markWritten(t, planned!.contentId, { meta_title: 'Dental CRM guide', meta_description: 'How to choose a dental CRM.' });
  await ok(t, ws, 'POST', '/api/v1/destinations', { name: 'Blog', endpointUrl: 'https://blog.acme.example/hook', siteUrl: 'https://acme.example' });
  return planned!.contentId;
}

describe('content calendar', () => {
  it('shows each article on its publish day in the month view, with links between months, and every article in the list view', async () => {
    const { ws, visitor } = await signedIn('member');
    const [first, second] = (await commit(t, ws, 2)).planned;
    expect([first!.scheduledAt, second!.scheduledAt]).toEqual(['2026-11-23T09:00:00.000Z', '2026-11-25T09:00:00.000Z']);
    const base = `/w/${ws.workspaceId}/content`;

    const month = await page(visitor, base);
    expect(month).toContain('<h1>Calendar</h1>');
    expect(dayCell(month, '2026-11-23')).toContain(`<a href="${base}/articles/${first!.contentId}">Article 1</a>`);
    expect(dayCell(month, '2026-11-25')).toContain('Article 2');
    expect(dayCell(month, '2026-11-24')).not.toContain('Article');
    expect(month).toContain(`href="${base}?view=month&amp;month=2026-12"`);
    expect(month).toContain(`href="${base}?view=month&amp;month=2026-10"`);
    expect(await page(visitor, `${base}?view=month&month=2026-12`)).not.toContain('Article 1');

    const list = await page(visitor, `${base}?view=list`);
    expect(list).toMatch(/Article 1<\/a><\/th><td>planned<\/td>/);
    expect(list).toContain('Article 2');
    expect(hiddenFields(list)).toMatchObject({ contentId: second!.contentId });
  });

  it('reschedules an article from its form onto its new day in the workspace time zone, and shows an illegal date’s 400 changing nothing', async () => {
    const { ws, visitor, csrf } = await signedIn('owner');
    await ok(t, ws, 'POST', '/api/v1/brand/profile', { flexibleScheduling: true });
    await t.db.updateTable('workspaces').set({ time_zone: 'Pacific/Auckland' }).where('id', '=', ws.workspaceId).execute();
    const [planned] = (await commit(t, ws, 1)).planned;
    const back = `/w/${ws.workspaceId}/content?view=list`;
    const moved = await visitor.request(`/w/${ws.workspaceId}/do/reschedule_content`, {
      method: 'POST',
      form: { _csrf: csrf, back, contentId: planned!.contentId, scheduledAt: '2026-11-29T15:30:00Z' },
    });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`${back}&done=reschedule_content`);
    expect((await article(t, planned!.contentId)).scheduled_at).toBe(at('2026-11-29T15:30:00Z'));
    // 15:30 UTC on the 29th is 04:30 on the 30th in Auckland.
    const month = await page(visitor, `/w/${ws.workspaceId}/content`);
    expect(dayCell(month, '2026-11-30')).toContain('Article 1');
    expect(dayCell(month, '2026-11-29')).not.toContain('Article 1');

    const refused = await visitor.request(`/w/${ws.workspaceId}/do/reschedule_content`, {
      method: 'POST',
      form: { _csrf: csrf, back, contentId: planned!.contentId, scheduledAt: '2026-11-20T09:00:00Z' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('must be in the future');
    expect((await article(t, planned!.contentId)).scheduled_at).toBe(at('2026-11-29T15:30:00Z'));
  });
});

describe('an article’s page', () => {
  it('publishes only after the dry run is confirmed, then shows the meta, health and citability, and the rendered preview', async () => {
    const { ws, visitor, csrf } = await signedIn('owner');
    const contentId = await draftToPublish(ws);
    const path = `/w/${ws.workspaceId}/content/articles/${contentId}`;
    const draft = await page(visitor, path);
    expect(draft).toContain('<h1>Dental CRM 1</h1>');
    expect(draft).toContain('id="health-score"');
    expect(draft).toContain('id="publish-form"');

    const dryRun = await visitor.request(`/w/${ws.workspaceId}/do/publish_content`, { method: 'POST', form: { _csrf: csrf, back: path, contentId } });
    expect(dryRun.status).toBe(200);
    const check = await dryRun.text();
    expect(check).toContain('id="dry-run"');
    expect((await article(t, contentId)).status).toBe('draft');
    const confirmed = await visitor.request(`/w/${ws.workspaceId}/do/publish_content`, { method: 'POST', form: hiddenFields(check) });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${path}?done=publish_content`);
    expect((await article(t, contentId)).status).toBe('published');

    const published = await page(visitor, `${path}?done=publish_content`);
    expect(published).toContain('Done: publish content.');
    expect(published).toContain('<dt>Meta title</dt><dd>Dental CRM guide</dd>');
    expect(published).toMatch(/<p class="figure" id="health-score">\d+%<\/p>/);
    expect(published).toMatch(/<p class="figure" id="citability-score">\d+%<\/p>/);
    // The article's own headings sit under the page's Preview heading: its h1 is an h3, its h2 an h4.
    expect(published).toMatch(/<div class="preview" id="preview"><h3>Title<\/h3>[\s\S]*<h4>One<\/h4>/);
  });

  it('shows a draft’s preview rendered and sanitised as it would be published, recording nothing', async () => {
    const { ws, visitor } = await signedIn('owner');
    const contentId = await draftToPublish(ws);
    await t.db.updateTable('articles').set({ markdown: 'Kept <p onclick="steal()">raw</p>\n\n<script>steal()</script>\n\n[link](javascript:steal())' }).where('id', '=', contentId).execute();
    const shown = await page(visitor, `/w/${ws.workspaceId}/content/articles/${contentId}`);
    const preview = shown.slice(shown.indexOf('<div class="preview" id="preview">'));
    expect(preview).toContain('<p>Kept &lt;p onclick="steal()"&gt;raw&lt;/p&gt;</p>');
    expect(preview).not.toContain('<script');
    expect(preview).not.toContain('href="javascript:');
    expect(await t.db.selectFrom('internal_links').select('id').where('from_article_id', '=', contentId).execute()).toEqual([]);
  });

  it('generates a planned article only after the dry run is confirmed', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    const [planned] = (await commit(t, ws, 1)).planned;
    const path = `/w/${ws.workspaceId}/content/articles/${planned!.contentId}`;
    expect(await page(visitor, path)).toContain('Not written yet');
    const dryRun = await visitor.request(`/w/${ws.workspaceId}/do/generate_article`, { method: 'POST', form: { _csrf: csrf, back: path, contentId: planned!.contentId } });
    expect(dryRun.status).toBe(200);
    const check = await dryRun.text();
    expect(check).toContain('id="dry-run"');
    const writeJobs = () => t.db.selectFrom('jobs').select('kind').where('workspace_id', '=', ws.workspaceId).where('kind', '=', 'write_article').execute();
    expect(await writeJobs()).toEqual([]);
    const confirmed = await visitor.request(`/w/${ws.workspaceId}/do/generate_article`, { method: 'POST', form: hiddenFields(check) });
    expect(confirmed.status).toBe(303);
    expect(await writeJobs()).toHaveLength(1);
  });
});

describe('ideas, planned titles and the article policy', () => {
  it('shows the ideas fifty to a page, best first, with a link to the next', async () => {
    const ws = await t.workspace({ plan: 'starter' });
    // Straight through the domain: add_query's cap of 10 a minute would hold the REST route.
    for (let i = 1; i <= 55; i++) await addQuery(t.db, t.clock, ws.workspaceId, `crm question number ${i}`);
    const { visitor } = await signedIn('member', ws);
    const first = await page(visitor, `/w/${ws.workspaceId}/content/ideas`);
    expect(first).toContain('Ideas 1 to 50 of 55.');
    expect(first.match(/<th scope="row">/g)).toHaveLength(50);
    expect(first).toContain(`href="/w/${ws.workspaceId}/content/ideas?page=2" rel="next">More ideas</a>`);
    const second = await page(visitor, `/w/${ws.workspaceId}/content/ideas?page=2`);
    expect(second).toContain('Ideas 51 to 55 of 55.');
    expect(second.match(/<th scope="row">/g)).toHaveLength(5);
    expect(second).not.toContain('More ideas');
  });

  it('plans an idea and lists it among the planned titles with the room left', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    await ok(t, ws, 'POST', '/api/v1/queries', { text: 'crm for dentists' });
    const ideasPath = `/w/${ws.workspaceId}/content/ideas`;
    const ideas = await page(visitor, ideasPath);
    expect(ideas).toContain('<th scope="row">crm for dentists</th>');
    const queryId = hiddenFields(ideas).queryId!;
    const planned = await visitor.request(`/w/${ws.workspaceId}/do/plan_content_idea`, { method: 'POST', form: { _csrf: csrf, back: ideasPath, queryId } });
    expect(planned.status).toBe(303);
    const titles = await page(visitor, `/w/${ws.workspaceId}/content/titles`);
    expect(titles).toContain('<h2>Room in the calendar</h2>');
    expect(titles).toMatch(/<table id="planned">[\s\S]*crm for dentists/);
  });

  it('suggests titles from the writer model as boxes to tick, and plans the ticked ones', async () => {
    const { ws, visitor, csrf } = await signedIn('member');
    t.writer.reply({ content: { titles: [{ title: 'CRM for agencies: what to look for', keyword: 'crm for agencies' }] } });
    const path = `/w/${ws.workspaceId}/content/titles`;
    const suggested = await visitor.request(path, { method: 'POST', form: { _csrf: csrf, count: '1', topic: 'agency CRM' } });
    expect(suggested.status).toBe(200);
    const form = await suggested.text();
    expect(form).toContain('CRM for agencies: what to look for');
    const committed = await visitor.request(`/w/${ws.workspaceId}/do/commit_planned_titles`, {
      method: 'POST',
      form: new URLSearchParams({ _csrf: csrf, back: path, titles: JSON.stringify({ title: 'CRM for agencies: what to look for', keyword: 'crm for agencies' }) }),
    });
    expect(committed.status).toBe(303);
    const rows = await t.db.selectFrom('articles').select(['title', 'status']).where('workspace_id', '=', ws.workspaceId).execute();
    expect(rows).toEqual([{ title: 'CRM for agencies: what to look for', status: 'planned' }]);
  });

  it('lets an owner change the policy; a member is told why it is not shown, and a change is refused (403)', async () => {
    const { ws, visitor, csrf } = await signedIn('owner');
    const path = `/w/${ws.workspaceId}/content/policy`;
    const form = await page(visitor, path);
    expect(form).toContain('id="policy-form"');
    const saved = await visitor.request(`/w/${ws.workspaceId}/do/update_article_policy`, {
      method: 'POST',
      form: new URLSearchParams([['_csrf', csrf], ['back', path], ['publishDays', 'tue'], ['publishDays', 'thu'], ['includeFaq', 'false'], ['publishTime', '07:30']]),
    });
    expect(saved.status).toBe(303);
    const policy = await ok<{ policy: { publishDays: string[]; includeFaq: boolean; publishTime: string } }>(t, ws, 'GET', '/api/v1/settings/articles');
    expect(policy.policy).toMatchObject({ publishDays: ['tue', 'thu'], includeFaq: false, publishTime: '07:30' });

    const member = await signedIn('member', ws);
    const shown = await page(member.visitor, path);
    expect(shown).toContain('manage:org');
    expect(shown).not.toContain('id="policy-form"');
    const refused = await member.visitor.request(`/w/${ws.workspaceId}/do/update_article_policy`, { method: 'POST', form: { _csrf: member.csrf, publishTime: '10:00' } });
    expect(refused.status).toBe(403);
    expect((await ok<{ policy: { publishTime: string } }>(t, ws, 'GET', '/api/v1/settings/articles')).policy.publishTime).toBe('07:30');
  });
});
