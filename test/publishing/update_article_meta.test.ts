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
      featuredImageUrl: null,
      featuredImageAlt: null,
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
    ['no field to change', {}, 'body: send at least one of title, metaTitle, metaDescription, featuredImageUrl, featuredImageAlt'],
    ['an http image', { featuredImageUrl: 'http://cdn.example.com/cover.png' }, 'featuredImageUrl: must be an https URL of an image such as https://cdn.example.com/cover.jpg, or an empty string to clear it'],
    ['alt text without an image', { featuredImageAlt: 'A dentist at a desk' }, 'featuredImageAlt: needs a featured image: send featuredImageUrl with it'],
    ['a 251-character alt text', { featuredImageUrl: 'https://cdn.example.com/cover.png', featuredImageAlt: 'x'.repeat(251) }, 'featuredImageAlt: must have at most 250 characters'],
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

  it('refuses an image address no one could fetch (credentials in it), changing nothing', async () => {
    const ws = await t.workspace();
    const contentId = await writtenArticle(t, ws);
    const before = await snapshot(t.db);
    const answer = await t.rest(ws.key, 'POST', META, { contentId, featuredImageUrl: 'https://user:secret@cdn.example.com/cover.png', confirm: true });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^featuredImageUrl: cannot be fetched: /);
    expect(answer.body.error).not.toContain('secret');
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('gives a published article a featured image: sent as featuredImageUrl and in images with its alt text; an empty string takes it away', async () => {
    const ws = await t.workspace();
    const path = `/image-${ws.workspaceId}`;
    await destinationAt(t, ws, receiver, path, { siteUrl: receiver.origin });
    const contentId = await writtenArticle(t, ws);
    await publish(t, ws, contentId);
    await t.jobs.drain();
    expect(receiver.at(path)[0]!.body.article).not.toHaveProperty('featuredImageUrl');
    expect(receiver.at(path)[0]!.body.article).not.toHaveProperty('images');

    const image = 'https://cdn.example.com/dentist.png';
    const dryRun = await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: image, featuredImageAlt: 'A dentist at her desk' });
    expect(dryRun.note).toContain(`featuredImageUrl to "${image}", featuredImageAlt to "A dentist at her desk"`);
    const answer = await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: image, featuredImageAlt: 'A dentist at her desk', confirm: true });
    expect(answer).toMatchObject({ featuredImageUrl: image, featuredImageAlt: 'A dentist at her desk', changed: ['featuredImageUrl', 'featuredImageAlt'], republished: true });
    await t.jobs.drain();
    expect(receiver.at(path)[1]!.body.article).toMatchObject({
      featuredImageUrl: image,
      images: [{ url: image, altText: 'A dentist at her desk', placement: 'featured' }],
    });

    const removed = await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: '', confirm: true });
    expect(removed).toMatchObject({ featuredImageUrl: null, featuredImageAlt: null, changed: ['featuredImageUrl'], republished: true });
    await t.jobs.drain();
    expect(receiver.at(path)[2]!.body.article).not.toHaveProperty('featuredImageUrl');
  });

  it("uses the title as the image's alt text when none is given", async () => {
    const ws = await t.workspace();
    const path = `/alt-${ws.workspaceId}`;
    await destinationAt(t, ws, receiver, path, { siteUrl: receiver.origin });
    const contentId = await writtenArticle(t, ws);
    await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: 'https://cdn.example.com/a.png', confirm: true });
    await publish(t, ws, contentId);
    await t.jobs.drain();
    expect(receiver.at(path)[0]!.body.article.images).toEqual([{ url: 'https://cdn.example.com/a.png', altText: 'How to pick a CRM for dentists', placement: 'featured' }]);
  });
});
