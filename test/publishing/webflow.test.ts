import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { signedInVisitor } from '../dashboard/formVisitor.js';
import { ALL_SCOPES, FakeWebflow, SITE_BUILDER_SCOPES, type FakeCollection, type FakeWebflowSite } from '../integrations/fakes/webflow.js';
import { webflowEnv } from '../integrations/fakes/siteBuilders.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { snapshot } from '../support/snapshot.js';
import { hiddenFields } from '../support/visitor.js';
import { article, deliveriesOf, destinationOf, ok, publish, writtenArticle } from './support.js';

const DESTINATIONS = '/api/v1/destinations';
const HOUR = 3_600_000;
const SITE_URL = 'https://www.acme.example';
/** The owner's mapping of article parts to the collection's field slugs. */
const MAPPING = {
  body: 'post-body',
  excerpt: 'summary',
  metaTitle: 'seo-title',
  metaDescription: 'seo-description',
  featuredImage: 'main-image',
  category: 'category',
  tags: 'tags',
  faq: 'faq',
  schemaJsonLd: 'json-ld',
};

/**
 * The webflow destination kind against FakeWebflow, a local server following Webflow's Data API v2 description
 * (github.com/webflow/openapi-spec, openapi/v2.yml): the token's scopes (introspect), sites, collections and items.
 */
describe('Webflow CMS destinations', () => {
  let t: TestService;
  let webflow: FakeWebflow;
  beforeAll(async () => {
    webflow = await FakeWebflow.start();
    t = await TestService.start({
      writer: false,
      env: {
        SECRETS_KEY: randomBytes(32).toString('base64'),
        ...webflowEnv(webflow),
      },
      timing: { webhookTimeoutMs: 500, renderCheckDelayMs: 120_000 },
    });
  });
  afterAll(async () => {
    await t.close();
    await webflow.close();
  });
  beforeEach(() => {
    webflow.clearScript();
    webflow.slow = [];
  });

  /** An owner connects Webflow through the dashboard's OAuth flow; the site has a blog collection. */
  async function connected(scopes = ALL_SCOPES): Promise<{ ws: TestWorkspace; site: FakeWebflowSite; collection: FakeCollection; token: string }> {
    const owner = await t.signedInOwner();
    const settings = await (await owner.visitor.request(`/w/${owner.workspaceId}/settings`)).text();
    const started = await owner.visitor.request(`/w/${owner.workspaceId}/webflow/connect`, { method: 'POST', form: { _csrf: hiddenFields(settings)._csrf! } });
    const consent = new URL(started.headers.get('location')!);
    expect(consent.searchParams.get('scope')).toBe('sites:read sites:write custom_code:read custom_code:write cms:read cms:write');
    const { site, token } = webflow.addSite({ customDomains: [{ id: `dom${randomBytes(4).toString('hex')}`, url: 'www.acme.example' }], scopes });
    const back = await owner.visitor.request(`/dashboard/webflow/callback?code=${webflow.issueCode(token)}&state=${consent.searchParams.get('state')}`);
    expect(back.status).toBe(303);
    const collection = webflow.addCollection(site.id, {
      slug: 'blog',
      fields: [
        { slug: 'post-body', type: 'RichText' },
        { slug: 'summary', type: 'PlainText' },
        { slug: 'seo-title', type: 'PlainText' },
        { slug: 'seo-description', type: 'PlainText' },
        { slug: 'main-image', type: 'Image' },
        { slug: 'category', type: 'PlainText' },
        { slug: 'tags', type: 'PlainText' },
        { slug: 'faq', type: 'RichText' },
        { slug: 'json-ld', type: 'PlainText' },
        { slug: 'published-on', type: 'DateTime' },
      ],
    });
    return { ws: owner, site, collection, token };
  }

  async function webflowDestination(ws: TestWorkspace, collection: FakeCollection, publishAs: 'publish' | 'draft' = 'publish'): Promise<string> {
    const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Acme blog', kind: 'webflow', siteUrl: SITE_URL, publishAs, webflow: { collectionId: collection.id, fields: MAPPING } });
    return String(created.destinationId);
  }

  const itemsOf = (collection: FakeCollection) => collection.items;

  describe('create_destination with kind webflow', () => {
    it('checks the connection, the collection and the mapping, and stores no credentials of its own', async () => {
      const { ws, collection } = await connected();
      const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Acme blog', kind: 'webflow', siteUrl: SITE_URL, webflow: { collectionId: collection.id, fields: MAPPING } });
      expect(created.destination).toMatchObject({
        kind: 'webflow',
        endpointUrl: `https://api.webflow.com/v2/collections/${collection.id}/items`,
        siteUrl: SITE_URL,
        role: 'site',
        active: true,
        settings: { collectionId: collection.id, fields: expect.stringContaining('body→post-body') },
      });
      const row = await t.db.selectFrom('destinations').select(['credentials', 'settings']).where('id', '=', String(created.destinationId)).executeTakeFirstOrThrow();
      expect(t.service.services.credentials.open(row.credentials!)).toBe('{}');
      expect(JSON.parse(row.settings)).toEqual({ collectionId: collection.id, fields: MAPPING });
      expect(webflow.calls.some((call) => call.path === '/v2/token/introspect')).toBe(true);
    });

    it.each([
      ['an unknown collection', () => ({ collectionId: 'a'.repeat(24), fields: { body: 'post-body' } }), `webflow.collectionId: Webflow knows no collection ${'a'.repeat(24)}`],
      ['a field of the wrong type', (c: FakeCollection) => ({ collectionId: c.id, fields: { body: 'summary' } }), 'webflow.fields.body: the field summary ("summary") is PlainText; body needs a field of type RichText'],
      ['an image part on a text field', (c: FakeCollection) => ({ collectionId: c.id, fields: { body: 'post-body', featuredImage: 'tags' } }), 'webflow.fields.featuredImage: the field tags ("tags") is PlainText'],
      ['a field the collection lacks', (c: FakeCollection) => ({ collectionId: c.id, fields: { body: 'post-body', tags: 'labels' } }), 'webflow.fields.tags: the collection "Blog Posts" has no field with the slug labels'],
      ['a part on the item\'s own name field', (c: FakeCollection) => ({ collectionId: c.id, fields: { body: 'post-body', metaTitle: 'name' } }), "webflow.fields.metaTitle: the field name is every item's own, filled with the article's title"],
      ['no body', (c: FakeCollection) => ({ collectionId: c.id, fields: {} }), 'webflow.fields.body'],
    ])('refuses %s with a 400 naming the field and stores nothing', async (_case, input, message) => {
      const { ws, collection } = await connected();
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: SITE_URL, webflow: input(collection) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toContain(message);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses a collection of another site, and an address the connected site does not publish to', async () => {
      const { ws, token } = await connected();
      const { site: stranger } = webflow.addSite({ displayName: 'Stranger', customDomains: [{ id: 'doms', url: 'stranger.example' }] });
      const unreachable = webflow.addCollection(stranger.id, { fields: [{ slug: 'post-body', type: 'RichText' }] });
      const notOurs = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: SITE_URL, webflow: { collectionId: unreachable.id, fields: { body: 'post-body' } } });
      expect(notOurs.status).toBe(400);
      expect(notOurs.body.error).toContain(`webflow.collectionId: Webflow knows no collection ${unreachable.id}`);
      // The connection reaches a second site: its collection is not the one siteUrl's site has.
      const { site: second } = webflow.addSite({ displayName: 'Shop', customDomains: [{ id: 'domshop', url: 'shop.acme.example' }], token });
      const shop = webflow.addCollection(second.id, { fields: [{ slug: 'post-body', type: 'RichText' }] });
      const otherSite = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: SITE_URL, webflow: { collectionId: shop.id, fields: { body: 'post-body' } } });
      expect(otherSite.status).toBe(400);
      expect(otherSite.body.error).toContain(`webflow.collectionId: collection ${shop.id} is not a collection of the site Acme that serves ${SITE_URL}`);
      const wrongHost = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: 'https://blog.elsewhere.example', webflow: { collectionId: shop.id, fields: { body: 'post-body' } } });
      expect(wrongHost.status).toBe(400);
      expect(wrongHost.body.error).toContain('siteUrl: blog.elsewhere.example is not where a Webflow site of this connection publishes: its sites publish to www.acme.example, acme.webflow.io, shop.acme.example, shop.webflow.io');
    });

    it('refuses a connection made before the CMS scopes, naming them', async () => {
      const { ws, collection } = await connected(SITE_BUILDER_SCOPES);
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: SITE_URL, webflow: { collectionId: collection.id, fields: { body: 'post-body' } } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('webflow: the Webflow connection was made without the scopes cms:read, cms:write: reconnect Webflow in the dashboard to grant CMS access');
    });

    it('refuses a workspace without a Webflow connection', async () => {
      const ws = await t.workspace();
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'webflow', siteUrl: SITE_URL, webflow: { collectionId: 'b'.repeat(24), fields: { body: 'post-body' } } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('webflow: Webflow is not connected to this workspace');
    });
  });

  describe('publishing to Webflow', () => {
    it('creates the item live with the mapped parts, and records its address', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      await t.db.updateTable('articles').set({ featured_image_url: 'https://cdn.acme.example/crm.png', featured_image_alt: 'A dentist at the front desk' }).where('id', '=', contentId).execute();
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(1);
      const [item] = itemsOf(collection);
      // Sent as { url, alt }; Webflow fetches the image and keeps its own copy (a fileId).
      const created = webflow.calls.find((call) => call.method === 'POST' && call.path === `/v2/collections/${collection.id}/items/live`)!;
      expect((created.body as { fieldData: Record<string, unknown> }).fieldData['main-image']).toEqual({ url: 'https://cdn.acme.example/crm.png', alt: 'A dentist at the front desk' });
      expect(item!.fieldData['main-image']).toMatchObject({ fileId: expect.any(String), url: 'https://cdn.acme.example/crm.png', alt: 'A dentist at the front desk' });
      expect(item).toMatchObject({ isDraft: false, lastPublished: expect.any(Number) });
      const slug = String(item!.fieldData.slug);
      expect(item!.fieldData).toMatchObject({
        name: 'How to pick a CRM for dentists',
        'seo-title': 'CRM for dentists',
        'seo-description': 'How to choose a CRM for a dental practice.',
        category: 'Guides',
        tags: 'crm for dentists, dental crm',
        faq: '<h3>Do dentists need a CRM?</h3><p>Yes, to keep patients coming back.</p>',
      });
      expect(item!.fieldData['post-body']).toContain('Pick one that books appointments');
      expect(JSON.parse(String(item!.fieldData['json-ld']))).toBeTypeOf('object');
      expect(item!.live).toEqual(item!.fieldData);
      expect(webflow.calls.filter((call) => call.method === 'POST' && call.path === `/v2/collections/${collection.id}/items/live`)).toHaveLength(1);
      const url = `${SITE_URL}/blog/${slug}`;
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ event: 'article.published', state: 'delivered', outcome: 'delivered', returned_url: url });
      expect((await article(t, contentId)).url).toBe(url);
      const remembered = await t.db.selectFrom('destination_posts').selectAll().where('destination_id', '=', destinationId).execute();
      expect(remembered).toEqual([expect.objectContaining({ article_id: contentId, remote_id: item!.id, remote_url: url })]);
    });

    it('updates the same item when the article is published again after an edit', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = itemsOf(collection);
      await t.db.updateTable('articles').set({ title: 'Picking a dental CRM', markdown: '# Picking a dental CRM\n\nNow with reminders by text.' }).where('id', '=', contentId).execute();
      t.clock.advance(HOUR);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(1);
      const [updated] = itemsOf(collection);
      expect(updated).toMatchObject({ id: first!.id, isDraft: false });
      expect(updated!.live).toMatchObject({ name: 'Picking a dental CRM' });
      expect(String(updated!.live!['post-body'])).toContain('reminders by text');
      const events = (await deliveriesOf(t, destinationId)).map((d) => [d.event, d.state]);
      expect(events).toEqual([
        ['article.published', 'delivered'],
        ['article.updated', 'delivered'],
      ]);
      const writes = webflow.calls.filter((call) => call.method !== 'GET' && call.path.includes(collection.id)).map((call) => `${call.method} ${call.path}`);
      expect(writes.slice(-2)).toEqual([`PATCH /v2/collections/${collection.id}/items/${first!.id}`, `POST /v2/collections/${collection.id}/items/publish`]);
    });

    it('creates the item again when it was deleted in Webflow', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = itemsOf(collection);
      collection.items.length = 0;
      t.clock.advance(HOUR);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(1);
      expect(itemsOf(collection)[0]!.id).not.toBe(first!.id);
      expect((await deliveriesOf(t, destinationId)).at(-1)).toMatchObject({ state: 'delivered' });
    });

    it('leaves a draft staged, without an address or a render check', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection, 'draft');
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(itemsOf(collection)[0]).toMatchObject({ isDraft: true, live: null });
      // An article without a featured image leaves the image field out.
      expect(itemsOf(collection)[0]!.fieldData).not.toHaveProperty('main-image');
      expect(webflow.calls.some((call) => call.method === 'POST' && call.path === `/v2/collections/${collection.id}/items`)).toBe(true);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', outcome: 'delivered_no_address', returned_url: null });
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ statusMessage: 'Delivered as a draft', url: null });
      expect((await article(t, contentId)).url).toBeNull();
      expect(await t.db.selectFrom('jobs').select('kind').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toEqual([]);
    });

    it('finds the item a timed-out attempt made by its slug instead of making a second one', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      webflow.slow = [{ method: 'POST', pathEnds: '/items/live', ms: 1_500 }];
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'pending', attempts: 1, outcome: 'timeout' });
      expect(itemsOf(collection)).toHaveLength(1);
      webflow.slow = [];
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(1);
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, returned_url: `${SITE_URL}/blog/${String(itemsOf(collection)[0]!.fieldData.slug)}` });
      const lookup = webflow.calls.filter((call) => call.method === 'GET' && call.path === `/v2/collections/${collection.id}/items`).at(-1)!;
      expect(lookup.query.get('slug')).toBe(itemsOf(collection)[0]!.fieldData.slug);
    });

    it('waits as long as a 429 asks, then places the article', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      webflow.failNext((call) => call.method === 'POST' && call.path.endsWith('/items/live'), {
        status: 429,
        body: { code: 'too_many_requests', message: 'Too Many Requests', externalReference: null, details: [] },
        headers: { 'retry-after': '45' },
      });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [waiting] = await deliveriesOf(t, destinationId);
      expect(waiting).toMatchObject({ state: 'pending', attempts: 1, outcome: 'failed', status_code: 429 });
      expect(itemsOf(collection)).toHaveLength(0);
      const job = await t.db.selectFrom('jobs').select(['run_at']).where('kind', '=', 'deliver').where('subject_id', '=', waiting!.id).executeTakeFirstOrThrow();
      expect(Number(job.run_at) - t.clock.now()).toBeGreaterThanOrEqual(45_000);
      t.clock.advance(Number(job.run_at) - t.clock.now());
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(1);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    });

    it('records a revoked token as a final failure saying to reconnect', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      await t.db.updateTable('webflow_connections').set({ access_token: t.service.services.credentials.seal('wf_tok_revoked') }).where('workspace_id', '=', ws.workspaceId).execute();
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'failed', attempts: 1, outcome: 'failed', status_code: 401 });
      expect(delivery!.error).toContain("Webflow refused the connection's token (revoked?) (401)");
      expect(delivery!.error).toContain('reconnect Webflow in the dashboard');
    });

    it('send_test_event checks the destination through the outbox and changes nothing on Webflow', async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const writes = webflow.calls.filter((call) => call.method !== 'GET').length;
      const queued = await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
      expect(queued).toMatchObject({ event: 'test', queued: true });
      await t.jobs.drain();
      expect(itemsOf(collection)).toHaveLength(0);
      expect(webflow.calls.filter((call) => call.method !== 'GET')).toHaveLength(writes);
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({
        outcome: 'delivered_no_address',
        statusMessage: 'Delivered',
        note: expect.stringContaining('collection "Blog Posts" at /blog/ takes body→post-body'),
      });
    });

    it("places the article once when two instances' workers race for its delivery", async () => {
      const { ws, collection } = await connected();
      const destinationId = await webflowDestination(ws, collection);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      const other = new JobWorker({ db: t.db, clock: t.clock, services: t.service.services, logger: pino({ level: 'silent' }), handlers: JOB_HANDLERS });
      await Promise.all([t.jobs.drain(), other.drain()]);
      expect(itemsOf(collection)).toHaveLength(1);
      expect(webflow.calls.filter((call) => call.method === 'POST' && call.path === `/v2/collections/${collection.id}/items/live`)).toHaveLength(1);
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 1 });
    });
  });

  describe('the Destinations page', () => {
    it('creates a Webflow destination from the form (the mapping as nested fields) and lists it with its kind', async () => {
      const { ws, visitor, post } = await signedInVisitor(t, 'owner', 'publishing');
      const { site, token } = webflow.addSite({ customDomains: [{ id: 'domf', url: 'www.acme.example' }] });
      await t.db
        .insertInto('webflow_connections')
        .values({ workspace_id: ws.workspaceId, access_token: t.service.services.credentials.seal(token), connected_at: t.clock.now(), connected_by: null, state_hash: null, state_expires_at: null })
        .execute();
      const collection = webflow.addCollection(site.id, { fields: [{ slug: 'post-body', type: 'RichText' }, { slug: 'seo-title', type: 'PlainText' }] });
      const answer = await post('create_destination', {
        show: 'result',
        name: 'Webflow blog',
        kind: 'webflow',
        siteUrl: SITE_URL,
        'webflow.collectionId': collection.id,
        'webflow.fields.body': 'post-body',
        'webflow.fields.metaTitle': 'seo-title',
        'webflow.fields.excerpt': '',
        publishAs: 'publish',
      });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/whsec_/);
      const list = await (await visitor.request(`/w/${ws.workspaceId}/publishing`)).text();
      expect(list).toContain('<td>Webflow CMS</td>');
      expect(list).toContain('body→post-body, metaTitle→seo-title');
    });
  });
});
