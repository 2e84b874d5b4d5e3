// The Ghost destination against a real Ghost 5 (test/support/ghost.ts), through the service's operations: what lands on
// Ghost is read back through its Admin API. Failures a real Ghost cannot be made to give (429, 5xx, slow answers) stay
// with the fake in ./ghost.test.ts.
import type { Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { markerTag, uploadStem } from '../../src/integrations/ghost/adminApi.js';
import { ghostAdminRequest, ghostSkipReason, startGhost, withWrongAdminKey, type RealGhost } from '../support/ghost.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { snapshot } from '../support/snapshot.js';
import { article, deliveriesOf, destinationOf, ok, publish, writtenArticle } from './support.js';

interface GhostPost {
  id: string;
  title: string;
  slug: string;
  html: string;
  status: string;
  url: string;
  feature_image: string | null;
  feature_image_alt: string | null;
  meta_title: string | null;
  meta_description: string | null;
  custom_excerpt: string | null;
  canonical_url: string | null;
  codeinjection_head: string | null;
  tags: { name: string; visibility: string }[];
}

// The default reporter shows a skipped file without its describe's name: say why once, in the run's output.
if (ghostSkipReason) console.warn(ghostSkipReason);

const DESTINATIONS = '/api/v1/destinations';
const META = '/api/v1/content/meta';
const RENDER_CHECK_DELAY_MS = 120_000;
/** A 1×1 PNG: Ghost reads an upload's dimensions, so it must be a real image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe.skipIf(ghostSkipReason !== undefined)(ghostSkipReason ?? 'Ghost destinations against a real Ghost 5', () => {
  let ghost: RealGhost;
  let t: TestService;
  let images: { server: Server; origin: string; requests: string[] };

  beforeAll(async () => {
    // Ghost checks the Admin API token's times against its own clock: the service's starts at the real time.
    [ghost, t] = await Promise.all([
      startGhost(),
      TestService.start({ clock: new ManualClock(Date.now()), outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 15_000, renderCheckDelayMs: RENDER_CHECK_DELAY_MS } }),
    ]);
    const requests: string[] = [];
    const { server, port } = await startHttpsServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    images = { server, origin: `https://127.0.0.1:${port}`, requests };
  }, 180_000);

  afterAll(async () => {
    if (images) await closeServer(images.server);
    await t?.close();
    await ghost?.stop();
  });

  async function ghostDestination(ws: TestWorkspace, publishAs: 'publish' | 'draft' = 'publish'): Promise<string> {
    const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Real Ghost', kind: 'ghost', siteUrl: ghost.url, publishAs, ghost: { adminApiKey: ghost.adminApiKey } });
    return String(created.destinationId);
  }

  /** Every post (of any status) carrying the article's marker tag, as Ghost has it. */
  async function postsOf(contentId: string): Promise<GhostPost[]> {
    const filter = encodeURIComponent(`tag:${markerTag(contentId).slug}`);
    const answer = await ghostAdminRequest(ghost, 'GET', `/posts/?filter=${filter}&formats=html&include=tags&limit=all`);
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { posts: GhostPost[] }).posts;
  }

  async function allPosts(): Promise<string[]> {
    const answer = await ghostAdminRequest(ghost, 'GET', '/posts/?fields=id,updated_at&limit=all');
    return ((await answer.json()) as { posts: { id: string; updated_at: string }[] }).posts.map((post) => `${post.id}@${post.updated_at}`);
  }

  describe('create_destination', () => {
    it('accepts the Admin API key of a real integration', async () => {
      const ws = await t.workspace();
      const created = await ok(t, ws.key, 'POST', DESTINATIONS, { name: 'Real Ghost', kind: 'ghost', siteUrl: ghost.url, ghost: { adminApiKey: ghost.adminApiKey } });
      expect(created.destination).toMatchObject({ kind: 'ghost', endpointUrl: `${ghost.url}/ghost/api/admin/`, active: true });
    });

    it.each([
      // Ghost's /site/ answers any key: the key is proven by reading posts, which Ghost refuses with 401 UNKNOWN_ADMIN_API_KEY.
      ['a key Ghost never issued', () => ({ siteUrl: ghost.url, ghost: { adminApiKey: withWrongAdminKey(ghost).adminApiKey } }), 'ghost.adminApiKey: Ghost refused the Admin API key (401): Unknown Admin API Key'],
      ['an unreachable address', () => ({ siteUrl: 'https://127.0.0.1:1', ghost: { adminApiKey: ghost.adminApiKey } }), 'siteUrl: Ghost'],
    ])('refuses %s with a 400 naming the field and stores nothing', async (_case, input, message) => {
      const ws = await t.workspace();
      const before = await snapshot(t.db);
      const answer = await t.rest(ws.key, 'POST', DESTINATIONS, { name: 'Blog', kind: 'ghost', ...input() });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toContain(message);
      expect(await snapshot(t.db)).toEqual(before);
    });
  });

  describe('publishing', () => {
    it('publishes the article with every part in place, uploads its featured image, records the address and confirms the page live', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Dental CRM on a real Ghost');
      const imageUrl = `${images.origin}/covers/dentist.png`;
      await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: imageUrl, featuredImageAlt: 'A dentist at the front desk', confirm: true });
      await publish(t, ws, contentId);
      await t.jobs.drain();

      const posts = await postsOf(contentId);
      expect(posts).toHaveLength(1);
      const [post] = posts as [GhostPost];
      const { slug } = await article(t, contentId);
      expect(post).toMatchObject({
        title: 'Dental CRM on a real Ghost',
        slug,
        status: 'published',
        url: `${ghost.url}/${slug}/`,
        meta_title: 'CRM for dentists',
        meta_description: 'How to choose a CRM for a dental practice.',
        custom_excerpt: 'How to choose a CRM for a dental practice.',
        feature_image_alt: 'A dentist at the front desk',
        // The article had no address before this first publish: nothing to point to.
        canonical_url: null,
      });
      // Ghost keeps the body's text and the FAQ (plain HTML), converted to its editor format.
      expect(post.html).toContain('Pick one that books appointments and sends reminders.');
      expect(post.html).toContain('Do dentists need a CRM?');
      expect(post.html).toContain('Yes, to keep patients coming back.');
      expect(post.html).not.toContain('<script');
      expect(post.codeinjection_head).toMatch(/^<script type="application\/ld\+json">\{.*"@type":"Article".*"@type":"FAQPage".*<\/script>$/s);
      expect(post.tags.map((tag) => [tag.name, tag.visibility])).toEqual([
        ['Guides', 'public'],
        ['crm for dentists', 'public'],
        ['dental crm', 'public'],
        [markerTag(contentId).name, 'internal'],
      ]);
      // The image is Ghost's own copy in its media library, under the name made from its source address.
      expect(post.feature_image).toMatch(new RegExp(`^${ghost.url}/content/images/\\d{4}/\\d{2}/${uploadStem(imageUrl)}\\.png$`));
      const served = await fetch(post.feature_image!);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
      expect(images.requests.filter((path) => path === '/covers/dentist.png')).toHaveLength(1);

      expect((await article(t, contentId)).url).toBe(post.url);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', outcome: 'delivered', returned_url: post.url });
      t.clock.advance(RENDER_CHECK_DELAY_MS);
      await t.jobs.drain();
      expect(await article(t, contentId)).toMatchObject({ live_confirmed_at: t.clock.now(), live_check_error: null });
    });

    it('updates the same post when published again after an edit, without uploading the image again', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Scheduling software for dentists');
      const imageUrl = `${images.origin}/covers/scheduling.png`;
      await ok(t, ws.key, 'POST', META, { contentId, featuredImageUrl: imageUrl, featuredImageAlt: 'A calendar', confirm: true });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = (await postsOf(contentId)) as [GhostPost];

      // Each step a second later: deliveries are listed by when they were made.
      t.clock.advance(1_000);
      await ok(t, ws.key, 'POST', META, { contentId, title: 'Scheduling software dentists like', featuredImageAlt: 'A paper calendar', confirm: true });
      t.clock.advance(1_000);
      await publish(t, ws, contentId);
      await t.jobs.drain();

      const posts = await postsOf(contentId);
      expect(posts).toHaveLength(1);
      expect(posts[0]).toMatchObject({
        id: first.id,
        title: 'Scheduling software dentists like',
        feature_image: first.feature_image,
        feature_image_alt: 'A paper calendar',
        // Published once, the article's address is its canonical one.
        canonical_url: first.url,
      });
      expect(images.requests.filter((path) => path === '/covers/scheduling.png')).toHaveLength(1);
      // update_article_meta queued an article.updated of its own; the publish after it took its place.
      expect((await deliveriesOf(t, destinationId)).map((d) => [d.event, d.state])).toEqual([
        ['article.published', 'delivered'],
        ['article.updated', 'cancelled'],
        ['article.updated', 'delivered'],
      ]);
    });

    it('finds the post by its marker when no post is remembered (a timeout Ghost completed), and makes no second one', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Patient reminders that work');
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = (await postsOf(contentId)) as [GhostPost];
      // As if the first delivery had timed out after Ghost made the post: nothing remembers it.
      await t.db.deleteFrom('destination_posts').where('destination_id', '=', destinationId).execute();
      await ok(t, ws.key, 'POST', META, { contentId, metaTitle: 'Reminders that work', confirm: true });
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const posts = await postsOf(contentId);
      expect(posts.map((post) => [post.id, post.meta_title])).toEqual([[first.id, 'Reminders that work']]);
      const remembered = await t.db.selectFrom('destination_posts').select('remote_id').where('destination_id', '=', destinationId).execute();
      expect(remembered).toEqual([{ remote_id: first.id }]);
    });

    it('leaves a draft on Ghost without an address or a render check', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws, 'draft');
      const contentId = await writtenArticle(t, ws, 'Draft about dental marketing');
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const posts = await postsOf(contentId);
      expect(posts.map((post) => post.status)).toEqual(['draft']);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', outcome: 'delivered_no_address', returned_url: null });
      expect((await article(t, contentId)).url).toBeNull();
      expect(await t.db.selectFrom('jobs').select('kind').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toEqual([]);
    });

    it('send_test_event proves the destination and changes nothing on Ghost', async () => {
      const ws = await t.workspace();
      const destinationId = await ghostDestination(ws);
      const before = await allPosts();
      await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
      await t.jobs.drain();
      expect(await allPosts()).toEqual(before);
      expect((await destinationOf(t, ws, destinationId)).lastDelivery).toMatchObject({ outcome: 'delivered_no_address', note: expect.stringContaining('accepted the Admin API key') });
    });
  });
});
