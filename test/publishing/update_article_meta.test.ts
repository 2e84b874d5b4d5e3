import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import type { Receiver } from './receiver.js';
import { article, destinationAt, ok, publish, startWithReceiver, stopWithReceiver, writtenArticle } from './support.js';

const META = '/api/v1/content/meta';

describe('update_article_meta', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  it('is a dry run by default: says what would change and changes nothing', async () => {
    const ws = await t.workspace();
    const contentId = await writtenArticle(t, ws);
    const before = await snapshot(t.db);
    const answer = await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'Dental CRM guide' });
    expect(answer).toEqual({
      dryRun: true,
      note: 'Would change metaTitle to "Dental CRM guide" of "How to pick a CRM for dentists"; its slug "how-to-pick-a-crm-for-dentists" and URL stay. It is a draft, so nothing is sent until it is published. Repeat with confirm: true to save.',
    });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('changes a draft without sending anything; the slug stays', async () => {
    const ws = await t.workspace();
    await destinationAt(t, ws, receiver, `/draft-${ws.workspaceId}`, { siteUrl: receiver.origin });
    const contentId = await writtenArticle(t, ws);
    const answer = await ok(t, ws.key, 'POST', META, { contentId, title: 'A whole new title', metaDescription: ' Shorter. ', confirm: true });
    expect(answer).toEqual({
      contentId,
      title: 'A whole new title',
      metaTitle: 'CRM for dentists',
      metaDescription: 'Shorter.',
      slug: 'how-to-pick-a-crm-for-dentists',
      url: null,
      changed: ['title', 'metaDescription'],
      republished: false,
      deliveries: [],
    });
    expect(await t.db.selectFrom('deliveries').select('id').where('article_id', '=', contentId).execute()).toEqual([]);
  });

  it('publishes a changed published article again: article.updated with the same id, slug and URL', async () => {
    const ws = await t.workspace();
    const path = `/published-${ws.workspaceId}`;
    await destinationAt(t, ws, receiver, path, { siteUrl: receiver.origin });
    const contentId = await writtenArticle(t, ws);
    receiver.reply(path, { json: { ok: true, url: receiver.url('/blog/crm') } });
    await publish(t, ws, contentId);
    await t.jobs.drain();
    const dryRun = await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'Dental CRM guide' });
    expect(dryRun.note).toContain('It is published, so it would be published again (article.updated to the destinations).');
    const answer = await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'Dental CRM guide', confirm: true });
    expect(answer).toMatchObject({ changed: ['metaTitle'], republished: true, url: receiver.url('/blog/crm'), deliveries: [{ event: 'article.updated' }] });
    await t.jobs.drain();
    const [first, second] = receiver.at(path);
    expect(second!.headers['x-service-event']).toBe('article.updated');
    expect(second!.body.article).toMatchObject({ id: contentId, slug: first!.body.article.slug, metaTitle: 'Dental CRM guide', canonicalUrl: receiver.url('/blog/crm') });
    expect((await article(t, contentId)).url).toBe(receiver.url('/blog/crm'));
  });

  it('does not publish again when nothing changed', async () => {
    const ws = await t.workspace();
    await destinationAt(t, ws, receiver, `/same-${ws.workspaceId}`, { siteUrl: receiver.origin });
    const contentId = await writtenArticle(t, ws);
    await publish(t, ws, contentId);
    const answer = await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'CRM for dentists', confirm: true });
    expect(answer).toMatchObject({ changed: [], republished: false });
    expect(await t.db.selectFrom('deliveries').select('id').where('article_id', '=', contentId).execute()).toHaveLength(1);
  });

  it.each([
    ['a 61-character meta title', { metaTitle: 'x'.repeat(61) }, 'metaTitle: must have at most 60 characters'],
    ['a 156-character meta description', { metaDescription: 'x'.repeat(156) }, 'metaDescription: must have at most 155 characters'],
    ['a 201-character title', { title: 'x'.repeat(201) }, 'title: must have at most 200 characters'],
    ['an empty title', { title: '  ' }, 'title: must not be empty'],
    ['no field to change', {}, 'body: send at least one of title, metaTitle, metaDescription'],
  ])('refuses %s with a 400 naming the field, dry run or not, changing nothing', async (_case, bad, message) => {
    const ws = await t.workspace();
    const contentId = await writtenArticle(t, ws);
    const before = await snapshot(t.db);
    for (const confirm of [false, true]) {
      const answer = await t.rest(ws.key, 'POST', META, { contentId, ...bad, confirm });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(message);
    }
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('accepts exactly 60 and 155 characters', async () => {
    const ws = await t.workspace();
    const contentId = await writtenArticle(t, ws);
    const answer = await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'x'.repeat(60), metaDescription: 'y'.repeat(155), confirm: true });
    expect(answer.changed).toEqual(['metaTitle', 'metaDescription']);
  });

  it('refuses a planned article ("not written yet") and an archived one', async () => {
    const ws = await t.workspace();
    const planned = await writtenArticle(t, ws);
    await t.db.updateTable('articles').set({ status: 'planned', markdown: null }).where('id', '=', planned).execute();
    const archived = await writtenArticle(t, ws);
    await t.db.updateTable('articles').set({ status: 'archived' }).where('id', '=', archived).execute();
    const notWritten = await t.rest(ws.key, 'POST', META, { contentId: planned, title: 'New', confirm: true });
    expect(notWritten.status).toBe(400);
    expect(notWritten.body.error).toBe(`contentId: article ${planned} is not written yet; write it with generate_article first`);
    const refused = await t.rest(ws.key, 'POST', META, { contentId: archived, title: 'New' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^contentId: .* is archived/);
  });
});
