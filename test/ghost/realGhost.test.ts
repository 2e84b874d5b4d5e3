// The real Ghost the destination's tests run against (test/support/ghost.ts), checked with direct Admin API calls:
// what it accepts and answers is what the Ghost destination has to match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghostAdminRequest, ghostAdminToken, ghostSkipReason, startGhost, withWrongAdminKey, type RealGhost } from '../support/ghost.js';

interface GhostPost {
  id: string;
  title: string;
  html?: string;
  status: string;
  url: string;
  updated_at: string;
  feature_image: string | null;
  meta_title: string | null;
  meta_description: string | null;
  custom_excerpt: string | null;
  canonical_url: string | null;
  codeinjection_head: string | null;
  tags: { name: string; slug: string; visibility: string }[];
}

interface GhostError {
  type: string;
  code: string | null;
  message: string;
  context: string | null;
  details: unknown;
}

// The default reporter shows a skipped file without its describe's name: say why once, in the run's output.
if (ghostSkipReason) console.warn(ghostSkipReason);

const FEATURE_IMAGE = 'https://images.example.com/sightline/cover.png';

describe.skipIf(ghostSkipReason !== undefined)(ghostSkipReason ?? 'a real Ghost 5 through its Admin API', () => {
  let ghost: RealGhost;
  let post: GhostPost;

  beforeAll(async () => {
    ghost = await startGhost();
  }, 180_000);

  afterAll(async () => {
    await ghost?.stop();
  });

  it('creates a published post from HTML, with its tags, an outside feature image and its metadata', async () => {
    const response = await ghostAdminRequest(ghost, 'POST', '/posts/?source=html', {
      posts: [
        {
          title: 'Sightline on a real Ghost',
          html: '<p>Hello <strong>world</strong>.</p><h2>What it does</h2><p>It publishes.</p>',
          tags: ['Sightline', '#sightline-test'],
          feature_image: FEATURE_IMAGE,
          meta_title: 'Sightline meta title',
          meta_description: 'Sightline meta description',
          custom_excerpt: 'Sightline excerpt',
          canonical_url: 'https://example.com/articles/sightline',
          codeinjection_head: '<meta name="sightline-test" content="head">',
          status: 'published',
        },
      ],
    });
    expect(response.status).toBe(201);
    [post] = ((await response.json()) as { posts: [GhostPost] }).posts;
    expect(post).toMatchObject({
      title: 'Sightline on a real Ghost',
      status: 'published',
      // An outside image URL is kept as given: no upload needed.
      feature_image: FEATURE_IMAGE,
      meta_title: 'Sightline meta title',
      meta_description: 'Sightline meta description',
      custom_excerpt: 'Sightline excerpt',
      canonical_url: 'https://example.com/articles/sightline',
      codeinjection_head: '<meta name="sightline-test" content="head">',
      url: `${ghost.url}/sightline-on-a-real-ghost/`,
    });
    // Tags given by name are created; a leading # makes one internal, with a hash- slug.
    expect(post.tags.map(({ name, slug, visibility }) => ({ name, slug, visibility }))).toEqual([
      { name: 'Sightline', slug: 'sightline', visibility: 'public' },
      { name: '#sightline-test', slug: 'hash-sightline-test', visibility: 'internal' },
    ]);
  });

  it('finds the post by its internal tag, with its HTML as Ghost stored it', async () => {
    const response = await ghostAdminRequest(ghost, 'GET', '/posts/?filter=tag:hash-sightline-test&formats=html');
    expect(response.status).toBe(200);
    const { posts } = (await response.json()) as { posts: GhostPost[] };
    // Ghost's own "Coming soon" post is there too, untagged.
    expect(posts.map(({ id }) => id)).toEqual([post.id]);
    // The HTML went through Ghost's editor format (lexical): headings get ids.
    expect(posts[0]?.html).toBe('<p>Hello <strong>world</strong>.</p><h2 id="what-it-does">What it does</h2><p>It publishes.</p>');
  });

  it('updates the post with its updated_at, and refuses a stale or missing one', async () => {
    const stale = post.updated_at;
    // Ghost keeps updated_at to the second: a change within the same second would not make the first one stale.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const updated = await ghostAdminRequest(ghost, 'PUT', `/posts/${post.id}/?source=html`, {
      posts: [{ title: 'Sightline on a real Ghost, updated', html: '<p>Updated.</p>', updated_at: stale }],
    });
    expect(updated.status).toBe(200);
    const [after] = ((await updated.json()) as { posts: [GhostPost] }).posts;
    expect(after).toMatchObject({ title: 'Sightline on a real Ghost, updated', url: post.url, feature_image: FEATURE_IMAGE });
    expect(after.updated_at > stale).toBe(true);

    const collision = await ghostAdminRequest(ghost, 'PUT', `/posts/${post.id}/`, { posts: [{ title: 'Too late', updated_at: stale }] });
    expect(collision.status).toBe(409);
    expect(((await collision.json()) as { errors: GhostError[] }).errors[0]).toMatchObject({ type: 'UpdateCollisionError', code: 'UPDATE_COLLISION' });

    const missing = await ghostAdminRequest(ghost, 'PUT', `/posts/${post.id}/`, { posts: [{ title: 'No updated_at' }] });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: GhostError[] }).errors[0]).toMatchObject({ type: 'ValidationError', message: 'Validation error, cannot edit post.' });
    post = after;
  });

  it("renders the published post's page at its url, with its metadata in the head", async () => {
    const page = await fetch(post.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sightline on a real Ghost, updated</h1>');
    expect(html).toContain('<title>Sightline meta title</title>');
    expect(html).toContain('<meta name="description" content="Sightline meta description">');
    expect(html).toContain('<link rel="canonical" href="https://example.com/articles/sightline">');
    expect(html).toContain('<meta name="sightline-test" content="head">');
    expect(html).toContain(FEATURE_IMAGE);
  });

  it('refuses a post without a title', async () => {
    const response = await ghostAdminRequest(ghost, 'POST', '/posts/?source=html', { posts: [{ html: '<p>No title.</p>' }] });
    expect(response.status).toBe(422);
    const [error] = ((await response.json()) as { errors: GhostError[] }).errors;
    expect(error).toMatchObject({ type: 'ValidationError', message: 'Validation error, cannot save post.', context: 'Validation failed for posts[0].' });
    expect(JSON.stringify(error?.details)).toContain("should have required property 'title'");
  });

  it('takes an uploaded image and serves it', async () => {
    // A 1x1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'pixel.png');
    form.append('purpose', 'image');
    const response = await fetch(`${ghost.url}/ghost/api/admin/images/upload/`, {
      method: 'POST',
      headers: { Authorization: `Ghost ${await ghostAdminToken(ghost.adminApiKey)}`, 'Accept-Version': 'v5.0' },
      body: form,
    });
    expect(response.status).toBe(201);
    const [image] = ((await response.json()) as { images: [{ url: string }] }).images;
    expect(image.url).toMatch(new RegExp(`^${ghost.url}/content/images/\\d{4}/\\d{2}/pixel\\.png$`));
    const served = await fetch(image.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
  });

  it('answers 401 to a key it never issued, and to a known key id with the wrong secret', async () => {
    const unknown = await ghostAdminRequest(withWrongAdminKey(ghost), 'GET', '/posts/');
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { errors: GhostError[] }).errors[0]).toMatchObject({ type: 'UnauthorizedError', code: 'UNKNOWN_ADMIN_API_KEY', message: 'Unknown Admin API Key' });

    const [id] = ghost.adminApiKey.split(':');
    const wrongSecret = await ghostAdminRequest({ url: ghost.url, adminApiKey: `${id}:${'0'.repeat(64)}` }, 'GET', '/posts/');
    expect(wrongSecret.status).toBe(401);
    expect(((await wrongSecret.json()) as { errors: GhostError[] }).errors[0]).toMatchObject({ type: 'UnauthorizedError', code: 'INVALID_JWT', message: 'Invalid token: invalid signature' });
  });
});
