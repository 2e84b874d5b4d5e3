import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerTag, uploadStem } from '../../src/integrations/ghost/adminApi.js';
import { pino } from 'pino';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { signedInVisitor } from '../dashboard/formVisitor.js';
import { FakeGhost } from '../integrations/fakes/ghost.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { snapshot } from '../support/snapshot.js';
import { article, deliveriesOf, destinationOf, ok, publish, writtenArticle } from './support.js';

const DESTINATIONS = '/api/v1/destinations';
const HOUR = 3_600_000;

describe('Ghost destinations', () => {
  let t: TestService;
  let ghost: FakeGhost;
  beforeAll(async () => {
    // SECRETS_KEY set: the Admin API key must be stored sealed.
    t = await TestService.start({ env: { SECRETS_KEY: randomBytes(32).toString('base64') }, outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 500, renderCheckDelayMs: 120_000 } });
    ghost = await FakeGhost.start(() => t.clock.now());
  });
  afterAll(async () => {
    await ghost.close();
    await t.close();
  });

  async function ghostDestination(ws: TestWorkspace, publishAs: 'publish' | 'draft' = 'publish'): Promise<string> {
    const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Acme Journal', kind: 'ghost', siteUrl: ghost.origin, publishAs, ghost: { adminApiKey: ghost.adminApiKey } });
    return String(created.destinationId);
  }

  function postsOf(contentId: string) {
    return ghost.posts.filter((post) => post.tags.some((tag) => tag.slug === markerTag(contentId).slug));
  }

  describe('create_destination with kind ghost', () => {
    it('checks the key against the site, seals it, and shows only its last characters', async () => {
      const ws = await t.workspace();
      const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Acme Journal', kind: 'ghost', siteUrl: ghost.origin, ghost: { adminApiKey: ghost.adminApiKey } });
      expect(created.signingSecret).toMatch(/^whsec_/);
      expect(created.destination).toMatchObject({
        kind: 'ghost',
        endpointUrl: `${ghost.origin}/ghost/api/admin/`,
        siteUrl: ghost.origin,
        role: 'site',
        active: true,
        settings: { adminApiKey: `…${ghost.secret.slice(-4)}` },
      });
      const listed = await ok(t, ws.key, 'GET', DESTINATIONS);
      expect(JSON.stringify(listed)).not.toContain(ghost.secret.slice(0, 16));
      const row = await t.db.selectFrom('destinations').select(['kind', 'credentials', 'settings']).where('id', '=', String(created.destinationId)).executeTakeFirstOrThrow();
      expect(row.kind).toBe('ghost');
      expect(row.credentials).toMatch(/^sealed:v1:/);
      expect(row.credentials).not.toContain(ghost.secret);
      const check = ghost.calls.filter((call) => call.path.endsWith('/posts/')).at(-1)!;
      expect(check.headers.authorization).toMatch(/^Ghost ey/);
      expect(check.headers['accept-version']).toBe('v5.0');
    });

    it.each([
      ['a wrong key', () => ({ siteUrl: ghost.origin, ghost: { adminApiKey: `${ghost.keyId}:${'ab'.repeat(32)}` } }), 'ghost.adminApiKey: Ghost refused the Admin API key (401)'],
      ['a key that is not id:secret', () => ({ siteUrl: ghost.origin, ghost: { adminApiKey: 'not-a-key' } }), 'ghost.adminApiKey: must be the Admin API key'],
      ['an unreachable site', () => ({ siteUrl: 'https://127.0.0.1:1', ghost: { adminApiKey: ghost.adminApiKey } }), 'siteUrl: Ghost'],
      ['no key', () => ({ siteUrl: ghost.origin }), 'ghost: is required for kind ghost'],
      ['no site address', () => ({ ghost: { adminApiKey: ghost.adminApiKey } }), 'siteUrl: is required for a ghost destination'],
      ['an endpoint', () => ({ siteUrl: ghost.origin, endpointUrl: 'https://hooks.example/in', ghost: { adminApiKey: ghost.adminApiKey } }), 'endpointUrl: only for a webhook destination'],
    ])('refuses %s with a 400 naming the field and stores nothing', async (_case, input, message) => {
      const ws = await t.workspace();
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'ghost', ...input() });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toContain(message);
      expect(await snapshot(t.db)).toEqual(before);
    });

    it('refuses a Ghost older than 5', async () => {
      const ws = await t.workspace();
      ghost.version = '4.48.2';
      try {
        const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Old', kind: 'ghost', siteUrl: ghost.origin, ghost: { adminApiKey: ghost.adminApiKey } });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toContain('siteUrl: Ghost 4.48 is too old: Sightline needs Ghost 5 or later');
      } finally {
        ghost.version = '5.96.0';
      }
    });

    it('refuses a Ghost object for a webhook destination', async () => {
      const ws = await t.workspace();
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Hook', endpointUrl: 'https://hooks.example/in', ghost: { adminApiKey: ghost.adminApiKey } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('ghost: only for kind ghost');
    });
  });

  describe('publishing to Ghost', () => {
    it('creates the post with every part in place, and takes its address as the live URL', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [post] = postsOf(contentId);
      expect(postsOf(contentId)).toHaveLength(1);
      expect(post).toMatchObject({
        title: 'How to pick a CRM for dentists',
        status: 'published',
        meta_title: 'CRM for dentists',
        meta_description: 'How to choose a CRM for a dental practice.',
        custom_excerpt: 'How to choose a CRM for a dental practice.',
        feature_image: null,
      });
      expect(post!.html).toContain('Pick one that books appointments');
      expect(post!.codeinjection_head).toMatch(/^<script type="application\/ld\+json">\{.*"@type":"Article".*<\/script>$/s);
      expect(post!.tags.map((tag) => [tag.name, tag.visibility])).toEqual([
        ['Guides', 'public'],
        ['crm for dentists', 'public'],
        ['dental crm', 'public'],
        [markerTag(contentId).name, 'internal'],
      ]);
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ event: 'article.published', state: 'delivered', outcome: 'delivered', returned_url: post!.url });
      expect((await article(t, contentId)).url).toBe(post!.url);
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered', url: post!.url, statusMessage: 'Delivered' });
      const remembered = await t.db.selectFrom('destination_posts').selectAll().where('destination_id', '=', destinationId).execute();
      expect(remembered).toEqual([expect.objectContaining({ article_id: contentId, remote_id: post!.id, remote_url: post!.url })]);
      expect(await t.db.selectFrom('jobs').select('kind').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toHaveLength(1);
    });

    it('updates the same post when the article is published again after an edit', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = postsOf(contentId);
      await t.db.updateTable('articles').set({ title: 'Picking a dental CRM', markdown: '# Picking a dental CRM\n\nNow with reminders by text.' }).where('id', '=', contentId).execute();
      t.clock.advance(HOUR);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(postsOf(contentId)).toHaveLength(1);
      const [updated] = postsOf(contentId);
      expect(updated).toMatchObject({ id: first!.id, title: 'Picking a dental CRM' });
      expect(updated!.html).toContain('reminders by text');
      const events = (await deliveriesOf(t, destinationId)).map((d) => [d.event, d.state]);
      expect(events).toEqual([
        ['article.published', 'delivered'],
        ['article.updated', 'delivered'],
      ]);
      const put = ghost.calls.filter((call) => call.method === 'PUT').at(-1)!;
      expect(put.path).toBe(`/ghost/api/admin/posts/${first!.id}/`);
      expect(put.query.get('source')).toBe('html');
    });

    it('finds the post a timed-out attempt made by its marker instead of making a second one', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws);
      ghost.slowWrites = [2_000];
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'pending', attempts: 1, outcome: 'timeout' });
      expect(postsOf(contentId)).toHaveLength(1);
      t.clock.advance(HOUR);
      await t.jobs.drain();
      expect(postsOf(contentId)).toHaveLength(1);
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, returned_url: postsOf(contentId)[0]!.url });
      const attempts = await t.db.selectFrom('delivery_attempts').select(['attempt', 'outcome']).where('delivery_id', '=', delivery!.id).orderBy('attempt').execute();
      expect(attempts).toEqual([
        { attempt: 1, outcome: 'timeout' },
        { attempt: 2, outcome: 'delivered' },
      ]);
    });

    it('leaves a draft on Ghost without an address or a render check', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws, 'draft');
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect(postsOf(contentId)[0]).toMatchObject({ status: 'draft' });
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', outcome: 'delivered_no_address', returned_url: null });
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ statusMessage: 'Delivered as a draft', url: null });
      expect((await article(t, contentId)).url).toBeNull();
      expect(await t.db.selectFrom('jobs').select('kind').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toEqual([]);
    });

    it('send_test_event checks the destination through the outbox and changes nothing on Ghost', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const posts = ghost.posts.length;
      const writes = ghost.calls.filter((call) => call.method !== 'GET').length;
      const queued = await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
      expect(queued).toMatchObject({ event: 'test', queued: true });
      await t.jobs.drain();
      expect(ghost.posts).toHaveLength(posts);
      expect(ghost.calls.filter((call) => call.method !== 'GET')).toHaveLength(writes);
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered_no_address', statusMessage: 'Delivered', note: expect.stringContaining('accepted the Admin API key') });
      const { deliveries } = (await ok(t, ws.key, 'GET', '/api/v1/deliveries', { destinationId })) as { deliveries: Array<Record<string, unknown>> };
      expect(deliveries).toEqual([expect.objectContaining({ event: 'test', state: 'delivered', outcome: 'delivered_no_address', destinationName: 'Acme Journal' })]);
    });

    it("places the article once when two instances' workers race for its delivery", async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws);
      await publish(t, ws, contentId);
      const other = new JobWorker({ db: t.db, clock: t.clock, services: t.service.services, logger: pino({ level: 'silent' }), handlers: JOB_HANDLERS });
      await Promise.all([t.jobs.drain(), other.drain()]);
      expect(postsOf(contentId)).toHaveLength(1);
      expect(ghost.calls.filter((call) => call.method === 'POST' && call.path === '/ghost/api/admin/posts/')).toHaveLength(ghost.posts.length);
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 1 });
    });

    it('uploads the featured image to Ghost once, and fails the delivery for good on an image that is not one', async () => {
      const served = new Map<string, { type: string; body: Buffer }>([
        ['/cover.png', { type: 'image/png', body: Buffer.from('png bytes') }],
        ['/page.html', { type: 'text/html', body: Buffer.from('<p>not an image</p>') }],
      ]);
      const requested: string[] = [];
      const images = await startHttpsServer((req, res) => {
        requested.push(req.url ?? '');
        const file = served.get(req.url ?? '');
        res.writeHead(file === undefined ? 404 : 200, { 'content-type': file?.type ?? 'text/plain' });
        res.end(file?.body ?? 'not found');
      });
      try {
        const origin = `https://127.0.0.1:${images.port}`;
        const ws = await t.workspace();
        const destinationId = await ghostDestination(ws);
        const contentId = await writtenArticle(t, ws);
        await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, featuredImageUrl: `${origin}/cover.png`, featuredImageAlt: 'A cover', confirm: true });
        await publish(t, ws, contentId);
        await t.jobs.drain();
        const [post] = postsOf(contentId);
        expect(post).toMatchObject({ feature_image: expect.stringMatching(new RegExp(`^${ghost.origin}/content/images/\\d{4}/\\d{2}/${uploadStem(`${origin}/cover.png`)}\\.png$`)), feature_image_alt: 'A cover' });
        expect(ghost.images.get(new URL(post!.feature_image!).pathname)).toEqual({ bytes: Buffer.from('png bytes'), ref: `${origin}/cover.png` });
        await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, title: 'Picking a dental CRM', confirm: true });
        t.clock.advance(HOUR);
        await t.jobs.drain();
        expect(postsOf(contentId)[0]).toMatchObject({ title: 'Picking a dental CRM', feature_image: post!.feature_image });
        expect(requested).toEqual(['/cover.png']);

        for (const [path, reason] of [
          ['/page.html', 'it is text/html, not one of image/png'],
          ['/gone.png', 'its server answered 404'],
        ] as const) {
          // Deliveries are listed by created_at: each failure gets its own instant so the last one is the newest.
          t.clock.advance(HOUR);
          await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, featuredImageUrl: `${origin}${path}`, confirm: true });
          await t.jobs.drain();
          const last = (await deliveriesOf(t, destinationId)).at(-1)!;
          expect(last).toMatchObject({ state: 'failed', attempts: 1, status_code: null });
          expect(last.error).toContain(`the featured image ${origin}${path} could not be uploaded to Ghost: ${reason}`);
        }
      } finally {
        await closeServer(images.server);
      }
    });

    it('records a refused key as a final failure, not retried', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      await t.db.updateTable('destinations').set({ credentials: t.service.services.credentials.seal(JSON.stringify({ adminApiKey: `${ghost.keyId}:${'cd'.repeat(32)}` })) }).where('id', '=', destinationId).execute();
      await publish(t, ws, await writtenArticle(t, ws));
      await t.jobs.drain();
      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'failed', attempts: 1, outcome: 'failed', status_code: 401 });
      expect(delivery!.error).toContain('Ghost refused the Admin API key');
    });
  });

  describe('the Destinations page', () => {
    it('creates a Ghost destination from the form (the key as a nested field) and lists it with its kind and masked key', async () => {
      const { ws, visitor, post } = await signedInVisitor(t, 'owner', 'publishing');
      const answer = await post('create_destination', { show: 'result', name: 'Acme <Journal>', kind: 'ghost', siteUrl: ghost.origin, 'ghost.adminApiKey': ghost.adminApiKey, publishAs: 'publish' });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/whsec_/);
      const list = await (await visitor.request(`/w/${ws.workspaceId}/publishing`)).text();
      expect(list).toContain('<th scope="row">Acme &lt;Journal&gt;</th>');
      expect(list).toContain('<td>Ghost</td>');
      expect(list).toContain(`adminApiKey …${ghost.secret.slice(-4)}`);
      expect(list).not.toContain(ghost.secret);
      const refused = await post('create_destination', { show: 'result', name: 'Wrong', kind: 'ghost', siteUrl: ghost.origin, 'ghost.adminApiKey': `${ghost.keyId}:${'ef'.repeat(32)}` });
      expect(await refused.text()).toContain('ghost.adminApiKey: Ghost refused the Admin API key');
    });
  });
});
