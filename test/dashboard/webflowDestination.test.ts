import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeWebflow } from '../integrations/fakes/webflow.js';
import { webflowEnv } from '../integrations/fakes/siteBuilders.js';
import { TestService, type TestWorkspace } from '../support/harness.js';
import { signedInVisitor } from './formVisitor.js';

const SITE_URL = 'https://www.acme.example';

/**
 * The Destinations page's Webflow part against FakeWebflow: with a connection the owner picks a collection and, per
 * article part, one of its fields of a fitting type; without one the page keeps typed ids and slugs and says why.
 */
describe('Destinations page: Webflow collection and fields to pick', () => {
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
    });
  });
  afterAll(async () => {
    await t.close();
    await webflow.close();
  });

  /** The workspace's Webflow connection, as the OAuth callback stores it. */
  async function connect(ws: TestWorkspace, token: string): Promise<void> {
    await t.db
      .insertInto('webflow_connections')
      .values({ workspace_id: ws.workspaceId, access_token: t.service.services.credentials.seal(token), connected_at: t.clock.now(), connected_by: null, state_hash: null, state_expires_at: null })
      .execute();
  }

  /** The options of a select, as [value, label] pairs (labels as sent, escaped). */
  function options(page: string, name: string): Array<[string, string]> {
    const select = new RegExp(`<select name="${name.replace(/\./g, '\\.')}">(.*?)</select>`, 's').exec(page);
    if (select === null) throw new Error(`no select ${name} on the page`);
    return [...select[1]!.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((match) => [match[1]!, match[2]!]);
  }

  it('lists the collections, offers only fitting fields of the chosen one, and creates the destination with the picks', async () => {
    const { ws, visitor, post } = await signedInVisitor(t, 'owner', 'publishing');
    const { site, token } = webflow.addSite({ displayName: 'Acme', customDomains: [{ id: 'dompick', url: 'www.acme.example' }] });
    await connect(ws, token);
    const blog = webflow.addCollection(site.id, {
      displayName: 'Blog Posts',
      fields: [
        { slug: 'post-body', type: 'RichText', displayName: 'Post body' },
        { slug: 'summary', type: 'PlainText', displayName: 'Summary' },
        { slug: 'main-image', type: 'Image', displayName: 'Main image' },
        { slug: 'published-on', type: 'DateTime', displayName: 'Published on' },
      ],
    });
    const news = webflow.addCollection(site.id, { slug: 'news', displayName: 'News', fields: [] });

    const page = await (await visitor.request(`/w/${ws.workspaceId}/publishing`)).text();
    expect(options(page, 'webflowCollection')).toEqual([
      [blog.id, 'Blog Posts (site Acme)'],
      [news.id, 'News (site Acme)'],
    ]);
    expect(page).toContain('pick the collection above and press Show its fields');
    expect(page).not.toContain('name="webflow.fields.body"');

    const chosen = await (await visitor.request(`/w/${ws.workspaceId}/publishing?webflowCollection=${blog.id}`)).text();
    expect(options(chosen, 'kind')).toContainEqual(['webflow', 'Webflow CMS']);
    expect(chosen).toContain('<option value="webflow" selected>');
    expect(chosen).toContain(`<option value="${blog.id}" selected>Blog Posts (site Acme)</option>`);
    expect(options(chosen, 'webflow.fields.body')).toEqual([
      ['', 'not Webflow'],
      ['post-body', 'Post body (post-body)'],
    ]);
    // Name and slug, every item's own PlainText fields, are not offered: the article's title and slug fill them.
    expect(options(chosen, 'webflow.fields.excerpt').map(([value]) => value)).toEqual(['', 'post-body', 'summary']);
    expect(options(chosen, 'webflow.fields.metaTitle').map(([value]) => value)).toEqual(['', 'summary']);
    expect(options(chosen, 'webflow.fields.featuredImage')).toEqual([
      ['', '— not mapped —'],
      ['main-image', 'Main image (main-image)'],
    ]);
    expect(chosen).not.toContain('value="published-on"');

    const answer = await post(
      'create_destination',
      {
        show: 'result',
        name: 'Webflow blog',
        kind: 'webflow',
        siteUrl: SITE_URL,
        'webflow.collectionId': blog.id,
        'webflow.fields.body': 'post-body',
        'webflow.fields.excerpt': 'summary',
        'webflow.fields.metaTitle': '',
        'webflow.fields.featuredImage': 'main-image',
        publishAs: 'publish',
      },
      `/w/${ws.workspaceId}/publishing?webflowCollection=${blog.id}`,
    );
    expect(answer.status).toBe(200);
    const row = await t.db.selectFrom('destinations').select('settings').where('workspace_id', '=', ws.workspaceId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.settings)).toEqual({ collectionId: blog.id, fields: { body: 'post-body', excerpt: 'summary', featuredImage: 'main-image' } });
  });

  it('escapes the names Webflow gives collections and fields', async () => {
    const { ws, visitor } = await signedInVisitor(t, 'owner', 'publishing');
    const { site, token } = webflow.addSite({ displayName: 'Acme <i>Co</i>' });
    await connect(ws, token);
    const collection = webflow.addCollection(site.id, { displayName: '<script>alert(1)</script> Posts', fields: [{ slug: 'post-body', type: 'RichText', displayName: '<b>Body</b>' }] });
    const page = await (await visitor.request(`/w/${ws.workspaceId}/publishing?webflowCollection=${collection.id}`)).text();
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).not.toContain('<b>Body</b>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Posts (site Acme &lt;i&gt;Co&lt;/i&gt;)');
    expect(options(page, 'webflow.fields.body')).toContainEqual(['post-body', '&lt;b&gt;Body&lt;/b&gt; (post-body)']);
  });

  it('keeps typed ids and slugs when the workspace has no Webflow connection, and says why', async () => {
    const { ws, visitor } = await signedInVisitor(t, 'owner', 'publishing');
    const page = await (await visitor.request(`/w/${ws.workspaceId}/publishing?webflowCollection=abc`)).text();
    expect(page).not.toContain('name="webflowCollection"');
    expect(page).toContain('<input type="text" name="webflow.collectionId" value="">');
    expect(page).toContain('<input type="text" name="webflow.fields.body" value="">');
    expect(page).toContain("Webflow&#39;s collections cannot be listed, so type the collection id and field slugs: Webflow is not connected to this workspace: an owner connects it on the Settings page of the dashboard.");
  });

  it('reads nothing from Webflow for a member, who has no Add form', async () => {
    const { ws, visitor } = await signedInVisitor(t, 'member', 'publishing');
    const { token } = webflow.addSite();
    await connect(ws, token);
    const before = webflow.calls.length;
    const page = await (await visitor.request(`/w/${ws.workspaceId}/publishing`)).text();
    expect(page).toContain('Only the workspace owner can add');
    expect(webflow.calls.length).toBe(before);
  });
});
