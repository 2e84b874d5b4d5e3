// The WordPress plugin (integrations/wordpress/sightline) in a real WordPress (test/support/wordpress.ts), reporting to
// a real service. Skipped, with the reason, on a machine without WordPress, PHP or MariaDB (test/wordpress/install.sh).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/exports/artifacts.js';
import { buildPluginZip, pluginVersion, WORDPRESS_PLUGIN_DIR } from '../../src/exports/wordpressPlugin.js';
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

  /** The dashboard's login cookies of a user, as wp-login.php sets them (its test cookie sent along). */
  async function cookies(user: { user: string; password: string }): Promise<string> {
    const login = await fetch(`${wp.url}/wp-login.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'wordpress_test_cookie=WP%20Cookie%20check' },
      body: new URLSearchParams({ log: user.user, pwd: user.password, 'wp-submit': 'Log In', testcookie: '1' }),
    });
    expect(login.status).toBe(302);
    return login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
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

  it('sends its report after the page without waiting for the answer, with the headers and body of the contract', async () => {
    // A service that takes the request and never answers, and a WordPress told to wait 30 s for it: a page that
    // waited for the report's answer would take those 30 s.
    let received = '';
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => (received += String(chunk)));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const muPlugins = join(wp.root, 'wp-content', 'mu-plugins');
    await mkdir(muPlugins, { recursive: true });
    await writeFile(
      join(muPlugins, 'long-timeout.php'),
      "<?php\nadd_filter( 'http_request_args', static function ( $args, $url ) { if ( false !== strpos( $url, '/api/site/crawl' ) ) { $args['timeout'] = 30; } return $args; }, 10, 2 );\n",
    );
    try {
      await wp.setOption('sightline_address', `http://127.0.0.1:${(silent.address() as { port: number }).port}`);
      const started = Date.now();
      await page('/sample-page/?utm_source=x', GPTBOT);
      expect(Date.now() - started).toBeLessThan(10_000);
      const deadline = Date.now() + 10_000;
      while (!received.includes('\r\n\r\n{') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const [head, body] = received.split('\r\n\r\n');
      const [requestLine, ...headerLines] = head!.split('\r\n');
      expect(requestLine).toMatch(/^POST \/api\/site\/crawl HTTP\/1\.[01]$/);
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      expect(headers).toMatchObject({ 'x-service-key': secret, 'content-type': 'application/json', 'x-sightline-plugin': `wordpress/${VERSION}` });
      expect(JSON.parse(body!)).toEqual({ user_agent: GPTBOT, path: '/sample-page/' });
    } finally {
      await rm(join(muPlugins, 'long-timeout.php'));
      await wp.setOption('sightline_address', t.baseUrl);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
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

  it("makes Yoast SEO's title, description and canonical address writable through REST when Yoast is active, and says so in its status", async () => {
    // Yoast itself is not packaged for Debian: a must-use plugin that defines its version constant stands in for it.
    const muPlugins = join(wp.root, 'wp-content', 'mu-plugins');
    await mkdir(muPlugins, { recursive: true });
    await writeFile(join(muPlugins, 'yoast-stand-in.php'), "<?php\ndefine( 'WPSEO_VERSION', '21.0' );\n");
    try {
      const status = await fetch(`${wp.url}/wp-json/sightline/v1/status`, { headers: { authorization: wp.basicAuth(wp.author) } });
      expect(await status.json()).toEqual({ version: VERSION, yoast: true, rankMath: false });
      const meta = { _yoast_wpseo_title: 'A title for search', _yoast_wpseo_metadesc: 'A description for search', _yoast_wpseo_canonical: 'https://acme.example/guide' };
      const created = await fetch(`${wp.url}/wp-json/wp/v2/posts`, {
        method: 'POST',
        headers: { authorization: wp.basicAuth(wp.author), 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'With Yoast', content: 'Body', status: 'draft', meta }),
      });
      expect(created.status).toBe(201);
      const post = (await created.json()) as { id: number; meta: Record<string, unknown> };
      expect(post.meta).toMatchObject(meta);
      expect(JSON.parse(await wp.runPhp(`echo wp_json_encode( get_post_meta( ${post.id}, '_yoast_wpseo_title', true ) );`))).toBe(meta._yoast_wpseo_title);
    } finally {
      await rm(join(muPlugins, 'yoast-stand-in.php'));
    }
  });

  it('shows the settings page to administrators only, with stored markup escaped and the secret never shown', async () => {
    await wp.setOption('sightline_site_id', '"><script>alert("site")</script>');
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

  it('saves the settings form with its nonce only, sanitizing each field and keeping the secret when its field is left empty', async () => {
    const cookie = await cookies(wp.admin);
    const form = await (await fetch(`${wp.url}/wp-admin/options-general.php?page=sightline`, { headers: { cookie } })).text();
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form)?.[1];
    expect(nonce).toBeDefined();
    const fields = { option_page: 'sightline', action: 'update', _wp_http_referer: '/wp-admin/options-general.php?page=sightline', sightline_address: 'javascript:alert(1)', sightline_secret: '', sightline_site_id: 'site<b>_1' };
    const save = (body: Record<string, string>) =>
      fetch(`${wp.url}/wp-admin/options.php`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
    const options = async () => JSON.parse(await wp.runPhp("echo wp_json_encode( array_map( 'get_option', array( 'sightline_address', 'sightline_secret', 'sightline_site_id', 'sightline_tracking_tag' ) ) );")) as string[];
    const before = await options();

    expect((await save({ ...fields, _wpnonce: 'not-the-nonce' })).status).toBe(403);
    expect(await options()).toEqual(before);

    expect((await save({ ...fields, _wpnonce: nonce! })).status).toBe(302);
    expect(await options()).toEqual(['', secret, 'siteb_1', '0']);
    await wp.setOption('sightline_address', t.baseUrl);
  });

  it("installs from the built zip through WordPress's own plugin installer, and activates", async () => {
    const bare = await startWordPress({ plugin: false });
    try {
      const zip = join(bare.root, '..', 'sightline.zip');
      await writeFile(zip, (await buildPluginZip(ROOT)).zip);
      const answer = await bare.runPhp(`require_once ABSPATH . 'wp-admin/includes/admin.php';
require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
$upgrader = new Plugin_Upgrader( new Automatic_Upgrader_Skin() );
$installed = $upgrader->install( ${JSON.stringify(zip)} );
if ( true !== $installed ) { echo 'install failed'; exit( 1 ); }
$activated = activate_plugin( $upgrader->plugin_info() );
echo wp_json_encode( array( 'plugin' => $upgrader->plugin_info(), 'active' => null === $activated ) );`);
      expect(JSON.parse(answer)).toEqual({ plugin: 'sightline/sightline.php', active: true });
      const status = await fetch(`${bare.url}/wp-json/sightline/v1/status`, { headers: { authorization: bare.basicAuth(bare.admin) } });
      expect(await status.json()).toEqual({ version: VERSION, yoast: false, rankMath: false });
    } finally {
      await bare.stop();
    }
  }, 60_000);
});
