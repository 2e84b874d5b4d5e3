import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService, TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import type { Receiver, Reply } from './receiver.js';
import { article, deliveriesOf, destinationAt, destinationOf, ok, publish, startWithReceiver, stopWithReceiver, writtenArticle } from './support.js';

const PUBLISH = '/api/v1/content/publish';
const HOUR = 3_600_000;

describe('publish_content and webhook deliveries', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ t, receiver } = await startWithReceiver());
  });
  afterAll(() => stopWithReceiver({ t, receiver }));

  let paths = 0;
  /** A workspace with an active site destination at a fresh receiver path. */
  async function site(options: { publishAs?: 'publish' | 'draft' } = {}): Promise<{ ws: TestWorkspace; path: string; destinationId: string }> {
    const ws = await t.workspace();
    const path = `/site-${++paths}`;
    const destinationId = await destinationAt(t, ws, receiver, path, { siteUrl: receiver.origin, ...options });
    return { ws, path, destinationId };
  }

  const liveUrl = (slug: string) => receiver.url(`/blog/${slug}`);

  describe('the dry run', () => {
    it('is the default: changes nothing and says what would be delivered where', async () => {
      const { ws } = await site();
      await destinationAt(t, ws, receiver, `/feed-${++paths}`, { name: 'Partner feed' });
      const contentId = await writtenArticle(t, ws);
      const before = await snapshot(t.db);
      const answer = await ok(t, ws.key, 'POST', PUBLISH, { contentId });
      expect(answer.dryRun).toBe(true);
      expect(answer.note).toContain('Would publish "How to pick a CRM for dentists" (draft, first publish)');
      expect(answer.note).toMatch(/article\.published to "\/site-\d+" \(serves the site, .*; article\.published to "Partner feed" \(feed/);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe('what is refused', () => {
    it('refuses a planned, an archived and a being-written article with a 400 naming contentId, changing nothing', async () => {
      const { ws } = await site();
      const planned = await writtenArticle(t, ws);
      await t.db.updateTable('articles').set({ status: 'planned', markdown: null }).where('id', '=', planned).execute();
      const archived = await writtenArticle(t, ws);
      await t.db.updateTable('articles').set({ status: 'archived', archived_at: t.clock.now() }).where('id', '=', archived).execute();
      const writing = await writtenArticle(t, ws);
      await t.db.updateTable('articles').set({ writing_job_id: 'job_x' }).where('id', '=', writing).execute();
      const before = await snapshot(t.db);
      for (const [contentId, rule] of [
        [planned, 'is not written yet'],
        [archived, 'is archived'],
        [writing, 'is being written'],
      ] as const) {
        for (const confirm of [false, true]) {
          const answer = await t.rest(ws.key, 'POST', PUBLISH, { contentId, confirm });
          expect(answer.status).toBe(400);
          expect(answer.body.error).toMatch(new RegExp(`^contentId: article ${contentId} ${rule}`));
        }
      }
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses to publish without a destination, naming the setup', async () => {
      const ws = await t.workspace();
      const answer = await t.rest(ws.key, 'POST', PUBLISH, { contentId: await writtenArticle(t, ws), confirm: true });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/^no destination to publish to: create one with create_destination/);
    });
  });

  describe('a publish', () => {
    it('delivers article.published with the article object of the specification, then article.updated with the same id', async () => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      const slug = 'how-to-pick-a-crm-for-dentists';
      receiver.reply(path, { json: { ok: true, url: liveUrl(slug) } });
      const published = await publish(t, ws, contentId);
      const publishedAt = t.clock.now();
      expect(published).toEqual({
        contentId,
        status: 'published',
        publishedAt: new Date(publishedAt).toISOString(),
        firstPublish: true,
        deliveries: [{ deliveryId: expect.stringMatching(/^dlv_/), jobId: expect.stringMatching(/^job_/), destinationId, destinationName: path, role: 'site', event: 'article.published' }],
      });
      // Recorded before it is sent: the delivery and its job exist the moment the publish answers.
      const [recorded] = await deliveriesOf(t, destinationId);
      expect(recorded).toMatchObject({ state: 'pending', attempts: 0, event: 'article.published' });
      const stored = await article(t, contentId);
      expect(stored).toMatchObject({ status: 'published', published_at: publishedAt });
      expect(stored.html).toContain('<h1>How to pick a CRM for dentists</h1>');

      await t.jobs.drain();
      expect(receiver.problems).toEqual([]);
      const [first] = receiver.at(path);
      expect(first!.raw.toString()).toBe(recorded!.body);
      expect(first!.headers['webhook-id']).toBe(recorded!.id);
      expect(first!.body.event).toBe('article.published');
      expect(first!.body.timestamp).toBe(publishedAt);
      expect(first!.body.article).toEqual({
        id: contentId,
        title: 'How to pick a CRM for dentists',
        slug,
        html: stored.html,
        markdown: expect.stringContaining('Pick one that books appointments'),
        metaTitle: 'CRM for dentists',
        metaDescription: 'How to choose a CRM for a dental practice.',
        keywords: ['crm for dentists', 'dental crm'],
        faq: [{ question: 'Do dentists need a CRM?', answer: 'Yes, to keep patients coming back.' }],
        schemaJsonLd: stored.schema_json_ld,
        language: 'en',
        author: { name: 'Dana Smile', bio: 'Practice manager' },
        categoryName: 'Guides',
        publishedAt,
        status: 'publish',
      });
      expect(JSON.parse(first!.body.article.schemaJsonLd as string)['@context']).toBe('https://schema.org');
      expect((await article(t, contentId)).url).toBe(liveUrl(slug));
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered', statusCode: 200, url: liveUrl(slug), statusMessage: 'Delivered', note: null });

      t.clock.advance(HOUR);
      const again = await publish(t, ws, contentId);
      expect(again).toMatchObject({ firstPublish: false, publishedAt: new Date(publishedAt).toISOString(), deliveries: [{ event: 'article.updated' }] });
      await t.jobs.drain();
      const second = receiver.at(path)[1]!;
      expect(second.headers['x-service-event']).toBe('article.updated');
      expect(second.body.article).toMatchObject({ id: contentId, slug, publishedAt, canonicalUrl: liveUrl(slug) });
      expect(second.headers['webhook-id']).not.toBe(first!.headers['webhook-id']);
    });

    it('sends the destination\'s publish-as setting as the article status', async () => {
      const { ws, path } = await site({ publishAs: 'draft' });
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      expect(receiver.at(path)[0]!.body.article.status).toBe('draft');
    });

    it('keeps sending article.published until the destination has received the article once', async () => {
      const { ws, path } = await site();
      const contentId = await writtenArticle(t, ws);
      receiver.reply(path, { status: 400 });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const again = await publish(t, ws, contentId);
      expect(again.deliveries).toMatchObject([{ event: 'article.published' }]);
    });

    it('supersedes a delivery not sent yet: a publish again before the worker ran sends only the newer version', async () => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.db.updateTable('articles').set({ title: 'A newer title' }).where('id', '=', contentId).execute();
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(receiver.at(path).map((d) => d.body.article.title)).toEqual(['A newer title']);
      // Both deliveries can carry the same created_at, so the order between them is not asserted.
      expect((await deliveriesOf(t, destinationId)).map((d) => d.state).sort()).toEqual(['cancelled', 'delivered']);
    });
  });

  describe("the receiver's answer", () => {
    it.each<[string, unknown]>([
      ['{ ok, url }', { ok: true, url: 'URL' }],
      ['{ article: { url } }', { article: { id: 'p1', url: 'URL' } }],
      ['{ data: { url } }', { data: { url: 'URL' } }],
    ])('takes the live URL from %s', async (_form, answer) => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      receiver.reply(path, { status: 201, json: JSON.parse(JSON.stringify(answer).replace('URL', liveUrl('crm'))) });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await article(t, contentId)).url).toBe(liveUrl('crm'));
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered', statusCode: 201, statusMessage: 'Delivered', url: liveUrl('crm') });
    });

    it('records "Delivered, no address" for a 2xx without a URL; the article gets no address and no render check', async () => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      receiver.reply(path, { status: 204 });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await article(t, contentId)).url).toBeNull();
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered_no_address', statusMessage: 'Delivered, no address', url: null });
      expect(await t.db.selectFrom('jobs').select('id').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toEqual([]);
    });

    it("ignores a URL on another site, and notes why", async () => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      receiver.reply(path, { json: { ok: true, url: 'https://elsewhere.example/crm' } });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await article(t, contentId)).url).toBeNull();
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({
        outcome: 'delivered_no_address',
        statusMessage: 'Delivered, no address',
        note: "the returned URL https://elsewhere.example/crm is not on the endpoint's site, so it was ignored",
      });
    });

    it.each<[string, Reply]>([
      ['a 4xx', { status: 422, json: { error: 'bad slug' } }],
      ['a redirect (never followed)', { status: 302, headers: { location: '/elsewhere' } }],
    ])('records %s as failed with the status and does not retry it', async (_case, reply) => {
      const { ws, path, destinationId } = await site();
      receiver.reply(path, reply);
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      t.clock.advance(24 * HOUR);
      await t.jobs.drain();
      expect(receiver.at(path)).toHaveLength(1);
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({
        outcome: 'failed',
        statusCode: reply.status,
        statusMessage: `Failed: the endpoint answered ${reply.status}`,
      });
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'failed', attempts: 1, status_code: reply.status });
      expect(await t.db.selectFrom('jobs').select(['state']).where('subject_id', '=', delivery!.id).execute()).toEqual([{ state: 'failed' }]);
    });

    it('retries a 5xx with backoff, recording each attempt, until it is delivered', async () => {
      const { ws, path, destinationId } = await site();
      const contentId = await writtenArticle(t, ws);
      receiver.reply(path, { status: 503 }, { status: 500 }, { json: { data: { url: liveUrl('retried') } } });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'failed', statusMessage: 'Failed: the endpoint answered 503' });
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'pending', attempts: 1 });
      for (let i = 0; i < 2; i++) {
        t.clock.advance(HOUR);
        await t.jobs.drain();
      }
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 3, returned_url: liveUrl('retried') });
      const attempts = await t.db.selectFrom('delivery_attempts').select(['attempt', 'outcome', 'status_code']).where('delivery_id', '=', delivery!.id).orderBy('attempt').execute();
      expect(attempts).toEqual([
        { attempt: 1, outcome: 'failed', status_code: 503 },
        { attempt: 2, outcome: 'failed', status_code: 500 },
        { attempt: 3, outcome: 'delivered', status_code: 200 },
      ]);
      // Every attempt is the same delivery: same bytes, same webhook-id, so a receiver can deduplicate.
      const sent = receiver.at(path);
      expect(new Set(sent.map((d) => d.headers['webhook-id']))).toEqual(new Set([delivery!.id]));
      expect(new Set(sent.map((d) => d.raw.toString()))).toEqual(new Set([delivery!.body]));
      expect((await article(t, contentId)).url).toBe(liveUrl('retried'));
    });

    it('honours Retry-After on a 429', async () => {
      const { ws, path, destinationId } = await site();
      receiver.reply(path, { status: 429, headers: { 'retry-after': '600' } });
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      t.clock.advance(590_000);
      await t.jobs.drain();
      expect(receiver.at(path)).toHaveLength(1);
      t.clock.advance(11_000);
      await t.jobs.drain();
      expect(receiver.at(path)).toHaveLength(2);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    });

    it('gives up after 5 attempts and leaves the delivery failed', async () => {
      const { ws, path, destinationId } = await site();
      receiver.reply(path, ...Array.from({ length: 6 }, () => ({ status: 502 })));
      await publish(t, ws, await writtenArticle(t, ws));
      for (let i = 0; i < 7; i++) {
        await t.jobs.drain();
        t.clock.advance(2 * HOUR);
      }
      expect(receiver.at(path)).toHaveLength(5);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'failed', attempts: 5, status_code: 502 });
    });

    it('counts an answer slower than the limit as failed ("did not answer within") and retries it', async () => {
      const { ws, path, destinationId } = await site();
      receiver.reply(path, { delayMs: 1500, json: { ok: true } });
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({
        outcome: 'timeout',
        statusCode: null,
        statusMessage: 'Failed: the endpoint did not answer within 0.5 seconds',
      });
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    });
  });

  describe('feeds', () => {
    it('get every article beside the active destination, with their own publish-as, but never set its address', async () => {
      const { ws, path } = await site();
      const feedPath = `/feed-${++paths}`;
      const feed = await destinationAt(t, ws, receiver, feedPath, { publishAs: 'draft' });
      const first = await writtenArticle(t, ws, 'First article');
      const second = await writtenArticle(t, ws, 'Second article');
      receiver.reply(feedPath, { json: { ok: true, url: liveUrl('from-the-feed') } }, { json: { ok: true, url: liveUrl('from-the-feed-2') } });
      await publish(t, ws, first);
      await publish(t, ws, second);
      await t.jobs.drain();
      expect(receiver.at(feedPath).map((d) => [d.body.article.id, d.body.article.status])).toEqual(
        expect.arrayContaining([
          [first, 'draft'],
          [second, 'draft'],
        ]),
      );
      expect(receiver.at(path)).toHaveLength(2);
      expect((await article(t, first)).url).toBeNull();
      expect((await article(t, second)).url).toBeNull();
      expect((await destinationOf(t, ws, feed)).lastDelivery).toMatchObject({ outcome: 'delivered', statusMessage: 'Delivered' });
    });
  });

  describe('the render check', () => {
    it('loads the live URL about two minutes later and confirms the article live, which makes auto-write available', async () => {
      const { ws, path } = await site();
      const contentId = await writtenArticle(t, ws, 'Dental CRM & scheduling');
      receiver.reply(path, { json: { ok: true, url: liveUrl('dental-crm') } });
      receiver.page('/blog/dental-crm', '<html><head><title>Dental CRM &amp; scheduling</title></head><body><h1>Dental CRM &amp; scheduling</h1></body></html>');
      const refusedBefore = await t.rest(ws.key, 'POST', '/api/v1/settings/articles', { autoWrite: true });
      expect(refusedBefore.status).toBe(400);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_checked_at: null, live_confirmed_at: null });
      t.clock.advance(119_000);
      await t.jobs.drain();
      expect((await article(t, contentId)).live_checked_at).toBeNull();
      t.clock.advance(1_000);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_checked_at: t.clock.now(), live_confirmed_at: t.clock.now(), live_check_error: null });
      expect((await t.rest(ws.key, 'POST', '/api/v1/settings/articles', { autoWrite: true })).status).toBe(200);
    });

    it('records why a page does not count as live, and looks again later', async () => {
      const { ws, path } = await site();
      const contentId = await writtenArticle(t, ws, 'Not there yet');
      receiver.reply(path, { json: { ok: true, url: liveUrl('not-there-yet') } });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      t.clock.advance(120_000);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_confirmed_at: null, live_check_error: 'the page answered 404' });
      receiver.page('/blog/not-there-yet', '<p>Another article</p>');
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_confirmed_at: null, live_check_error: 'the page does not contain the article title' });
      receiver.page('/blog/not-there-yet', '<h1>Not there   yet</h1>');
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_confirmed_at: t.clock.now(), live_check_error: null });
    });
  });
});
