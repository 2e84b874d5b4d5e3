// The WordPress plugin (integrations/wordpress/sightline) in a real WordPress (test/support/wordpress.ts), reporting to
// a real service. Skipped, with the reason, on a machine without WordPress, PHP or MariaDB (test/wordpress/install.sh).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';
import { pluginVersion, WORDPRESS_PLUGIN_DIR } from '../../src/exports/wordpressPlugin.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { startWordPress, type TestWordPress, wordpressUnavailable } from '../support/wordpress.js';

const unavailable = await wordpressUnavailable();

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VERSION = pluginVersion(await readFile(`${ROOT}${WORDPRESS_PLUGIN_DIR}sightline.php`, 'utf8'));

if (unavailable !== undefined) {
  describe('the WordPress plugin', () => {
    it.skip(`is not run here: ${unavailable}`);
  });
}

describe.skipIf(unavailable !== undefined)('the WordPress plugin', () => {
  let t: TestService;
  let wp: TestWordPress;
  let ws: TestWorkspace;
  let secret: string;

  beforeAll(async () => {
    [t, wp] = await Promise.all([TestService.start({ writer: false }), startWordPress()]);
    ws = await t.workspace();
    const created = await t.rest(ws.key, 'POST', '/api/v1/destinations', { name: 'WordPress', endpointUrl: 'https://hooks.acme.example/sightline', siteUrl: wp.url });
    expect(created.status).toBe(200);
    secret = String((created.body.data as { signingSecret: string }).signingSecret);
    await wp.setOption('sightline_address', t.baseUrl);
    await wp.setOption('sightline_secret', secret);
  }, 60_000);
  afterAll(async () => {
    await wp?.stop();
    await t?.close();
  });

  const page = async (path: string, userAgent: string) => {
    const response = await fetch(`${wp.url}${path}`, { headers: { 'user-agent': userAgent } });
    expect(response.status).toBe(200);
    return response.text();
  };
  const visits = () => t.db.selectFrom('crawler_visits').select(['path', 'user_agent', 'crawler', 'reporter']).where('workspace_id', '=', ws.workspaceId).orderBy('visited_at').execute();
  /** The report leaves after the page, without WordPress waiting for it: wait for it to land. */
  async function visitsOnceThere(count: number) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await visits();
      if (rows.length >= count || Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("reports a GPTBot visit with its version, never a person's, and the visit then counts in the funnel's crawls", async () => {
    // A person first: had the plugin reported them, their report would land before the crawler's.
    expect(await page('/hello-world/', CHROME)).toContain('Hello world!');
    await page('/hello-world/', GPTBOT);
    expect(await visitsOnceThere(1)).toEqual([{ path: '/hello-world/', user_agent: GPTBOT, crawler: 'GPTBot', reporter: 'cms_plugin' }]);

    const sources = await t.rest(ws.key, 'GET', '/api/v1/analytics/sources');
    const plugin = (sources.body.data as { aiCrawlers: { sources: Array<Record<string, unknown>> } }).aiCrawlers.sources.find((source) => source.source === 'cms_plugin');
    expect(plugin).toMatchObject({ qualifies: true, pluginVersion: `wordpress/${VERSION}` });

    expect((await t.rest(ws.key, 'POST', '/api/v1/analytics/sources', { dataType: 'aiCrawlers', source: 'cms_plugin' })).status).toBe(200);
    const funnel = await t.rest(ws.key, 'GET', '/api/v1/overview/funnel');
    expect((funnel.body.data as { crawls: unknown }).crawls).toMatchObject({ count: 1, source: 'cms_plugin' });
  });

  it('adds the tracking tag the service gives site owners when switched on, and not when off', async () => {
    const sources = await t.rest(ws.key, 'GET', '/api/v1/analytics/sources');
    const counter = (sources.body.data as { humanTraffic: { sources: Array<Record<string, unknown>> } }).humanTraffic.sources.find((source) => source.source === 'own_counter')!;
    await wp.setOption('sightline_site_id', counter.siteId);
    await wp.setOption('sightline_tracking_tag', '1');
    expect(await page('/', CHROME)).toContain(String(counter.tag));
    await wp.setOption('sightline_tracking_tag', '0');
    expect(await page('/', CHROME)).not.toContain('/t.js');
  });

  it('answers its status to users who can edit posts, and refuses the others', async () => {
    const status = (auth?: string) => fetch(`${wp.url}/wp-json/sightline/v1/status`, { headers: auth === undefined ? {} : { authorization: auth } });
    const answer = await status(wp.basicAuth(wp.author));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ version: VERSION, yoast: false, rankMath: false });
    expect((await status(wp.basicAuth(wp.subscriber))).status).toBe(403);
    expect((await status()).status).toBe(401);
  });

  it("lets an author write the Sightline post meta through REST, and prints the post's JSON-LD with nothing that closes its script", async () => {
    const jsonLd = { '@context': 'https://schema.org', '@type': 'Article', headline: 'Crawlers </script><script>alert(1)</script> & more' };
    const created = await fetch(`${wp.url}/wp-json/wp/v2/posts`, {
      method: 'POST',
      headers: { authorization: wp.basicAuth(wp.author), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Plugin meta', content: 'Body', status: 'publish', meta: { sightline_article_id: 'art_1', sightline_schema_json_ld: JSON.stringify(jsonLd) } }),
    });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { link: string; meta: Record<string, unknown> };
    expect(post.meta).toMatchObject({ sightline_article_id: 'art_1' });
    const html = await (await fetch(post.link, { headers: { 'user-agent': CHROME } })).text();
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(script).not.toContain('<');
    expect(JSON.parse(script!)).toEqual(jsonLd);
  });

  it('shows the settings page to administrators only, with stored markup escaped and the secret never shown', async () => {
    await wp.setOption('sightline_site_id', '"><script>alert("site")</script>');
    const cookies = async (user: { user: string; password: string }) => {
      const login = await fetch(`${wp.url}/wp-login.php`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'wordpress_test_cookie=WP%20Cookie%20check' },
        body: new URLSearchParams({ log: user.user, pwd: user.password, 'wp-submit': 'Log In', testcookie: '1', redirect_to: `${wp.url}/wp-admin/` }),
      });
      expect(login.status).toBe(302);
      return login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    };
    const settings = async (cookie: string) => fetch(`${wp.url}/wp-admin/options-general.php?page=sightline`, { headers: { cookie }, redirect: 'manual' });

    const answer = await settings(await cookies(wp.admin));
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(&quot;site&quot;)&lt;/script&gt;"');
    expect(html).not.toContain('<script>alert("site")');
    expect(html).toContain(`ends in …${secret.slice(-4)}`);
    expect(html).not.toContain(secret);
    expect(html).toContain('name="_wpnonce"');

    expect((await settings(await cookies(wp.author))).status).toBe(403);
  });
});
