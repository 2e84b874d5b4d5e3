// The WordPress destination against a real WordPress 6.1 with the Sightline plugin (test/support/wordpress.ts).
// Skipped, with the reason, on a machine without WordPress, PHP or MariaDB (test/wordpress/install.sh).
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:https';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentMarker } from '../../src/integrations/wordpress/restApi.js';
import { JOB_HANDLERS } from '../../src/jobs/handlers.js';
import { JobWorker } from '../../src/jobs/worker.js';
import { CMS_KINDS } from '../../src/publishing/cms/kinds.js';
import { cmsDeps } from '../../src/publishing/cms/deps.js';
import type { CmsArticle } from '../../src/publishing/cms/destination.js';
import { signedInVisitor } from '../dashboard/formVisitor.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { closeServer, startHttpsServer } from '../support/localServers.js';
import { snapshot } from '../support/snapshot.js';
import { startWordPress, type TestWordPress, type WordPressUser, wordpressUnavailable } from '../support/wordpress.js';
import { article, deliveriesOf, destinationOf, ok, publish, writtenArticle } from './support.js';

const unavailable = await wordpressUnavailable();

const DESTINATIONS = '/api/v1/destinations';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

if (unavailable !== undefined) {
  describe('WordPress destinations', () => {
    it.skip(`are not run here: ${unavailable}`);
  });
}

describe.skipIf(unavailable !== undefined)('WordPress destinations', () => {
  let t: TestService;
  let wp: TestWordPress;
  let images: { server: Server; port: number };

  beforeAll(async () => {
    // SECRETS_KEY set: the application password must be stored sealed. PHP's built-in server answers one request at a
    // time, so the delivery timeout is a generous one.
    [t, wp, images] = await Promise.all([
      TestService.start({ env: { SECRETS_KEY: randomBytes(32).toString('base64') }, outbound: { allowPrivateAddresses: true }, timing: { webhookTimeoutMs: 20_000, renderCheckDelayMs: 120_000 } }),
      startWordPress(),
      startHttpsServer((req, res) => {
        if (req.url === '/hero.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        else res.writeHead(404).end();
      }),
    ]);
  }, 60_000);
  afterAll(async () => {
    if (images !== undefined) await closeServer(images.server);
    await wp?.stop();
    await t?.close();
  });

  /** A REST call as the admin, through `?rest_route=` (it works whatever the permalinks). */
  async function rest<T>(route: string, query: Record<string, string> = {}, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const url = new URL(`${wp.url}/`);
    url.searchParams.set('rest_route', route);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { authorization: wp.basicAuth(wp.admin), 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    expect(response.status, `${route}: ${response.status}`).toBeLessThan(300);
    return (await response.json()) as T;
  }

  interface WpPost {
    id: number;
    link: string;
    status: string;
    slug: string;
    title: { raw: string };
    content: { raw: string };
    excerpt: { raw: string };
    categories: number[];
    tags: number[];
    featured_media: number;
    meta: Record<string, string>;
  }

  /** Every post (any status) carrying the article's marker. */
  async function postsOf(contentId: string): Promise<WpPost[]> {
    const posts = await rest<WpPost[]>('/wp/v2/posts', { search: contentId, status: 'any', context: 'edit', per_page: '100' });
    return posts.filter((post) => post.content.raw.startsWith(contentMarker(contentId)));
  }

  function input(account: WordPressUser, extra: Record<string, unknown> = {}) {
    return { name: 'Acme on WordPress', kind: 'wordpress', siteUrl: wp.url, wordpress: { username: account.user, applicationPassword: account.appPassword }, ...extra };
  }

  async function wordpressDestination(ws: TestWorkspace, publishAs: 'publish' | 'draft' = 'publish'): Promise<string> {
    return String((await ok(t, ws.key, 'POST', DESTINATIONS, input(wp.admin, { publishAs }))).destinationId);
  }

  /** The article's featured image, served by the local https server, as update_article_meta sets it on a draft. */
  async function withFeaturedImage(ws: TestWorkspace, contentId: string): Promise<void> {
    await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, featuredImageUrl: `https://127.0.0.1:${images.port}/hero.png`, featuredImageAlt: 'A dentist at the front desk', confirm: true });
  }

  /** An earlier attempt whose answer never reached the outbox: WordPress gets the queued delivery's article, nothing is remembered. */
  async function placeAsALateAttempt(ws: TestWorkspace, destinationId: string, contentId: string) {
    const delivery = await t.db.selectFrom('deliveries').select('body').where('article_id', '=', contentId).executeTakeFirstOrThrow();
    const row = await t.db.selectFrom('destinations').select(['settings', 'credentials']).where('id', '=', destinationId).executeTakeFirstOrThrow();
    const destination = CMS_KINDS.wordpress.open(wp.url, row.settings, t.service.services.credentials.open(row.credentials!), cmsDeps(t.db, t.clock, t.service.services, ws.workspaceId));
    return destination.place((JSON.parse(delivery.body) as { article: CmsArticle }).article, null);
  }

  async function refusal(body: Record<string, unknown>): Promise<string> {
    const ws = await t.workspace();
    const before = await snapshot(t.db);
    const answer = await t.rest(ws.key, 'POST', DESTINATIONS, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(await snapshot(t.db)).toEqual(before);
    return String(answer.body.error);
  }

  describe('create_destination with kind wordpress', () => {
    it('checks the account, keeps the REST root the site announces, seals the password and masks it', async () => {
      const ws = await t.workspace();
      const created = await ok(t, ws.key, 'POST', DESTINATIONS, input(wp.admin));
      expect(created.destination).toMatchObject({
        kind: 'wordpress',
        endpointUrl: `${wp.url}/wp-json/`,
        siteUrl: wp.url,
        active: true,
        settings: { username: 'admin', postType: 'posts', applicationPassword: `…${wp.admin.appPassword.slice(-4)}` },
      });
      const row = await t.db.selectFrom('destinations').select(['credentials', 'settings']).where('id', '=', String(created.destinationId)).executeTakeFirstOrThrow();
      expect(row.credentials).toMatch(/^sealed:v1:/);
      expect(row.credentials).not.toContain(wp.admin.appPassword);
      expect(JSON.parse(row.settings)).toEqual({ username: 'admin', postType: 'posts', restRoot: `${wp.url}/wp-json/` });
      expect(JSON.stringify(await ok(t, ws.key, 'GET', DESTINATIONS))).not.toContain(wp.admin.appPassword);
      // send_test_event runs the same check through the outbox and says what it found.
      await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId: created.destinationId });
      await t.jobs.drain();
      const { lastDelivery } = await destinationOf(t, ws, String(created.destinationId));
      expect(lastDelivery).toMatchObject({ outcome: 'delivered_no_address', statusMessage: 'Delivered' });
      expect((lastDelivery as { note: string }).note).toMatch(/^WordPress at .* accepted the application password of admin \(administrator\); the Sightline plugin [\d.]+ is active$/);
    });

    it('refuses a wrong application password, naming the field', async () => {
      const error = await refusal(input({ ...wp.admin, appPassword: 'abcd efgh ijkl mnop qrst uvwx' }));
      expect(error).toContain('wordpress.applicationPassword: WordPress did not accept the username and application password');
    });

    it('refuses a subscriber, listing what it lacks and which role has it', async () => {
      const error = await refusal(input(wp.subscriber));
      expect(error).toContain('wordpress.applicationPassword: the WordPress account subscriber (role: subscriber) lacks publish_posts');
      for (const capability of ['edit_posts', 'upload_files', 'manage_categories']) expect(error).toContain(capability);
      expect(error).not.toContain('unfiltered_html');
      expect(error).toContain('give it the Editor or Administrator role');
    });

    it('refuses an author for manage_categories; without the plugin, for unfiltered_html too', async () => {
      const withPlugin = await refusal(input(wp.author));
      expect(withPlugin).toContain('lacks manage_categories (to create categories and tags)');
      expect(withPlugin).not.toContain('unfiltered_html');
      await wp.runPhp("require_once ABSPATH . 'wp-admin/includes/plugin.php'; deactivate_plugins( 'sightline/sightline.php' );");
      try {
        const bare = await refusal(input(wp.author));
        expect(bare).toContain('manage_categories');
        expect(bare).toContain('unfiltered_html (to put the JSON-LD script in the post');
      } finally {
        await wp.runPhp("require_once ABSPATH . 'wp-admin/includes/plugin.php'; activate_plugin( 'sightline/sightline.php' );");
      }
    });

    it('refuses an http site address', async () => {
      const error = await refusal(input(wp.admin, { siteUrl: wp.url.replace('https://', 'http://') }));
      expect(error).toMatch(/^siteUrl: /);
      expect(error).toContain('https');
    });
  });

  describe('the Destinations page', () => {
    it('creates a WordPress destination from the form (nested fields) and lists it with its kind and masked password', async () => {
      const { ws, visitor, post } = await signedInVisitor(t, 'owner', 'publishing');
      const fields = { show: 'result', kind: 'wordpress', siteUrl: wp.url, 'wordpress.username': 'admin', publishAs: 'publish' };
      const answer = await post('create_destination', { ...fields, name: 'Acme <Blog>', 'wordpress.applicationPassword': wp.admin.appPassword, 'wordpress.postType': '' });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/whsec_/);
      const list = await (await visitor.request(`/w/${ws.workspaceId}/publishing`)).text();
      expect(list).toContain('<td>WordPress</td>');
      expect(list).toContain(`applicationPassword …${wp.admin.appPassword.slice(-4)}`);
      expect(list).not.toContain(wp.admin.appPassword);
      const refused = await post('create_destination', { ...fields, name: 'Wrong', 'wordpress.applicationPassword': 'abcd efgh ijkl mnop qrst uvwx' });
      expect(await refused.text()).toContain('wordpress.applicationPassword: WordPress did not accept the username and application password');
    });
  });

  describe('publishing to WordPress', () => {
    it('creates the post with its image, terms, marker and JSON-LD, takes its link as the live URL, and the page renders', async () => {
      const ws = await t.workspace();
      const destinationId = await wordpressDestination(ws);
      const contentId = await writtenArticle(t, ws);
      await withFeaturedImage(ws, contentId);
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const posts = await postsOf(contentId);
      expect(posts).toHaveLength(1);
      const post = posts[0]!;
      expect(post).toMatchObject({ status: 'publish', slug: 'how-to-pick-a-crm-for-dentists', title: { raw: 'How to pick a CRM for dentists' }, excerpt: { raw: 'How to choose a CRM for a dental practice.' } });
      expect(post.content.raw).toContain('Pick one that books appointments');
      expect(post.content.raw).toContain('Do dentists need a CRM?');
      // With the plugin the JSON-LD travels in its meta, not in the body.
      expect(post.content.raw).not.toContain('application/ld+json');
      expect(post.meta.sightline_article_id).toBe(contentId);
      expect(JSON.parse(post.meta.sightline_schema_json_ld!)).toMatchObject({ '@context': 'https://schema.org' });
      const categories = await rest<Array<{ name: string }>>('/wp/v2/categories', { include: post.categories.join(','), _fields: 'name' });
      expect(categories.map((c) => c.name)).toEqual(['Guides']);
      const tags = await rest<Array<{ name: string }>>('/wp/v2/tags', { include: post.tags.join(','), _fields: 'name', orderby: 'include' });
      expect(tags.map((tag) => tag.name).sort()).toEqual(['crm for dentists', 'dental crm']);
      const media = await rest<{ alt_text: string; mime_type: string }>(`/wp/v2/media/${post.featured_media}`, { context: 'edit' });
      expect(media).toMatchObject({ alt_text: 'A dentist at the front desk', mime_type: 'image/png' });

      const [delivery] = await deliveriesOf(t, destinationId);
      expect(delivery).toMatchObject({ state: 'delivered', outcome: 'delivered', returned_url: post.link });
      expect((await article(t, contentId)).url).toBe(post.link);
      const page = await (await fetch(post.link)).text();
      expect(page).toContain('application/ld+json');

      t.clock.advance(121_000);
      await t.jobs.drain();
      const checked = await t.db.selectFrom('articles').select(['live_confirmed_at', 'live_check_error']).where('id', '=', contentId).executeTakeFirstOrThrow();
      expect(checked).toEqual({ live_confirmed_at: t.clock.now(), live_check_error: null });
    });

    it('updates the same post when the title changes (update_article_meta), and makes it again when deleted on WordPress', async () => {
      const ws = await t.workspace();
      const destinationId = await wordpressDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Dental CRM pricing');
      await publish(t, ws, contentId);
      await t.jobs.drain();
      const [first] = await postsOf(contentId);
      // Deliveries are listed by time: the update comes an hour later.
      t.clock.advance(3_600_000);
      await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, title: 'Dental CRM prices in 2026', metaDescription: 'What a dental CRM costs.', confirm: true });
      await t.jobs.drain();
      const after = await postsOf(contentId);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: first!.id, title: { raw: 'Dental CRM prices in 2026' } });
      expect((await deliveriesOf(t, destinationId)).map((d) => [d.event, d.state])).toEqual([
        ['article.published', 'delivered'],
        ['article.updated', 'delivered'],
      ]);

      await rest(`/wp/v2/posts/${first!.id}`, { force: 'true' }, { method: 'DELETE' });
      await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, metaTitle: 'Dental CRM prices', confirm: true });
      await t.jobs.drain();
      const again = await postsOf(contentId);
      expect(again).toHaveLength(1);
      expect(again[0]!.id).not.toBe(first!.id);
      const remembered = await t.db.selectFrom('destination_posts').select('remote_id').where('destination_id', '=', destinationId).execute();
      expect(remembered).toEqual([{ remote_id: String(again[0]!.id) }]);
    });

    it('leaves a draft without an address or a render check', async () => {
      const ws = await t.workspace();
      const destinationId = await wordpressDestination(ws, 'draft');
      const contentId = await writtenArticle(t, ws, 'Dental CRM for small practices');
      await publish(t, ws, contentId);
      await t.jobs.drain();
      expect((await postsOf(contentId))[0]).toMatchObject({ status: 'draft' });
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', outcome: 'delivered_no_address', returned_url: null });
      expect((await article(t, contentId)).url).toBeNull();
      expect(await t.db.selectFrom('jobs').select('kind').where('kind', '=', 'render_check').where('subject_id', '=', contentId).execute()).toEqual([]);
    });

    it('finds the post an attempt whose answer came too late made, instead of making a second one', async () => {
      const ws = await t.workspace();
      const destinationId = await wordpressDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Dental CRM migration');
      await publish(t, ws, contentId);
      // The earlier attempt: WordPress made the post, but its answer never reached the outbox (nothing remembered).
      const made = await placeAsALateAttempt(ws, destinationId, contentId);
      await t.jobs.drain();
      const posts = await postsOf(contentId);
      expect(posts.map((post) => String(post.id))).toEqual([made.remoteId]);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', returned_url: made.url });
    });

    it('without the plugin puts the JSON-LD in the body and finds an earlier post by the marker that starts its content', async () => {
      await wp.runPhp("require_once ABSPATH . 'wp-admin/includes/plugin.php'; deactivate_plugins( 'sightline/sightline.php' );");
      try {
        const ws = await t.workspace();
        const created = await ok(t, ws.key, 'POST', DESTINATIONS, input(wp.admin));
        const destinationId = String(created.destinationId);
        await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
        await t.jobs.drain();
        expect(((await destinationOf(t, ws, destinationId)).lastDelivery as { note: string }).note).toContain('the Sightline plugin is not active (JSON-LD goes in the post body)');
        const contentId = await writtenArticle(t, ws, 'Dental CRM without plugins');
        await publish(t, ws, contentId);
        const made = await placeAsALateAttempt(ws, destinationId, contentId);
        await t.jobs.drain();
        const posts = await postsOf(contentId);
        expect(posts.map((post) => String(post.id))).toEqual([made.remoteId]);
        expect(posts[0]!.content.raw).toMatch(/<script type="application\/ld\+json">\{.*"@type":"Article".*<\/script>$/s);
        expect(posts[0]!.meta).not.toHaveProperty('sightline_article_id');
      } finally {
        await wp.runPhp("require_once ABSPATH . 'wp-admin/includes/plugin.php'; activate_plugin( 'sightline/sightline.php' );");
      }
    });

    it("writes Yoast SEO's title, description and canonical address through the plugin when Yoast is active", async () => {
      // Yoast is not packaged for Debian: a must-use plugin defining its version constant stands in for it (as in test/wordpress).
      const muPlugins = join(wp.root, 'wp-content', 'mu-plugins');
      await mkdir(muPlugins, { recursive: true });
      await writeFile(join(muPlugins, 'yoast-stand-in.php'), "<?php\ndefine( 'WPSEO_VERSION', '21.0' );\n");
      try {
        const ws = await t.workspace();
        const destinationId = await wordpressDestination(ws);
        await ok(t, ws.key, 'POST', '/api/v1/destinations/test', { destinationId });
        await t.jobs.drain();
        expect(((await destinationOf(t, ws, destinationId)).lastDelivery as { note: string }).note).toMatch(/the Sightline plugin [\d.]+ is active, with Yoast SEO$/);
        const contentId = await writtenArticle(t, ws, 'Dental CRM reviews');
        await publish(t, ws, contentId);
        await t.jobs.drain();
        expect((await postsOf(contentId))[0]!.meta).toMatchObject({ _yoast_wpseo_title: 'CRM for dentists', _yoast_wpseo_metadesc: 'How to choose a CRM for a dental practice.', _yoast_wpseo_canonical: '' });
        // Once the article has its address, the next publish names it as the canonical one.
        await ok(t, ws.key, 'POST', '/api/v1/content/meta', { contentId, metaTitle: 'Dental CRM reviews 2026', confirm: true });
        await t.jobs.drain();
        const [post] = await postsOf(contentId);
        expect(post!.meta).toMatchObject({ _yoast_wpseo_title: 'Dental CRM reviews 2026', _yoast_wpseo_canonical: post!.link });
      } finally {
        await rm(join(muPlugins, 'yoast-stand-in.php'));
      }
    });

    it("places the article once when two instances' workers race for its delivery", async () => {
      const ws = await t.workspace();
      const destinationId = await wordpressDestination(ws);
      const contentId = await writtenArticle(t, ws, 'Dental CRM security');
      await publish(t, ws, contentId);
      const other = new JobWorker({ db: t.db, clock: t.clock, services: t.service.services, logger: pino({ level: 'silent' }), handlers: JOB_HANDLERS });
      await Promise.all([t.jobs.drain(), other.drain()]);
      expect(await postsOf(contentId)).toHaveLength(1);
      expect((await deliveriesOf(t, destinationId))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
    });
  });
});
