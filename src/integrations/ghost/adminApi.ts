import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { z } from 'zod';
import { ProviderClient, type ProviderAnswer, type ProviderCall } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import type { CmsConnection, CmsDeps } from '../../publishing/cms/constructor.js';
import { downloadImage } from '../../publishing/cms/featuredImage.js';
import { DestinationError, type CmsArticle, type CmsDestination, type PlacedPost } from '../../publishing/cms/destination.js';

export interface GhostCredentials {
  /** `id:secret` from an integration on Ghost's Settings → Integrations page; the secret is hex. */
  adminApiKey: string;
}

export type GhostConnection = CmsConnection<Record<string, never>, GhostCredentials>;

export const GHOST_LABEL = 'Ghost';
export const ADMIN_API_KEY_FIELD = 'ghost.adminApiKey';
/** The oldest major version whose Admin API this client speaks (Accept-Version v5.0). */
const MIN_MAJOR_VERSION = 5;
/** Ghost refuses tokens that live longer than five minutes. */
const TOKEN_SECONDS = 300;
/** Ghost's limits on these fields; longer values are refused with a 422. */
const MAX_EXCERPT_CHARS = 300;
const MAX_META_TITLE_CHARS = 300;
const MAX_META_DESCRIPTION_CHARS = 500;
const MAX_TAG_CHARS = 191;
/** The largest featured image downloaded for upload. */
/** The image types taken for upload, with the file extension Ghost is given (it decides the type by extension). */

/** `id:secret`, the secret hex: what Ghost shows as the Admin API key. */
export const ADMIN_API_KEY = /^[0-9a-f]{24}:[0-9a-f]{64}$/i;

const siteAnswer = z.object({ site: z.object({ title: z.string().nullish(), url: z.string().nullish(), version: z.string().nullish() }) });
const postSchema = z.object({ id: z.string(), url: z.string().nullish(), updated_at: z.string().nullish(), status: z.string(), feature_image: z.string().nullish() });
const POST_FIELDS = 'id,url,updated_at,status,feature_image';
const imagesAnswer = z.object({ images: z.array(z.object({ url: z.string() })).min(1) });
const postsAnswer = z.object({ posts: z.array(postSchema) });
/** Ghost answers only the `fields` asked for. */
const idsAnswer = z.object({ posts: z.array(z.object({ id: z.string() })) });
type GhostPost = z.infer<typeof postSchema>;

/** The internal tag that marks the post of one Sightline article (internal tags start with `#`; Ghost slugs them `hash-…`). */
export function markerTag(articleId: string): { name: string; slug: string } {
  const stem = `sightline-${articleId.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return { name: `#${stem}`, slug: `hash-${stem}` };
}

/**
 * The file name (without extension) a featured image is uploaded under: the same source address always gives the same
 * name, so a later publish sees on the post that this image is already there and uploads nothing. Ghost keeps an
 * upload's name, adding `-1`, `-2` when the name is taken.
 */
export function uploadStem(sourceUrl: string): string {
  return `sightline-${createHash('sha256').update(sourceUrl).digest('hex').slice(0, 24)}`;
}

/** Whether `imageUrl` (on Ghost) is the upload of `sourceUrl`. */
function isUploadOf(imageUrl: string | null | undefined, sourceUrl: string): boolean {
  if (imageUrl === null || imageUrl === undefined) return false;
  const name = new URL(imageUrl, 'https://ghost.invalid/').pathname.split('/').at(-1) ?? '';
  return new RegExp(`^${uploadStem(sourceUrl)}(-\\d+)?\\.[a-z]+$`).test(name);
}

function clip(text: string | null, max: number): string | null {
  if (text === null) return null;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Category first, then the keywords, each once (Ghost matches tag names without regard to case), then the marker. */
function tagsOf(article: CmsArticle): Array<{ name: string; slug?: string }> {
  const seen = new Set<string>();
  const tags: Array<{ name: string; slug?: string }> = [];
  for (const name of [article.categoryName, ...article.keywords]) {
    const trimmed = name?.trim().slice(0, MAX_TAG_CHARS);
    if (trimmed === undefined || trimmed === '' || trimmed.startsWith('#') || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    tags.push({ name: trimmed });
  }
  tags.push(markerTag(article.id));
  return tags;
}

/**
 * The post as Ghost's Admin API takes it. `?source=html` converts the HTML into Ghost's editor format (Lexical), which
 * drops what it has no card for, `<script>` among them: so the FAQ stays plain HTML in the body and the JSON-LD goes
 * into codeinjection_head. `featureImage` is the image's address on Ghost (uploaded to its media library).
 */
function postBody(article: CmsArticle, featureImage: string | null): Record<string, unknown> {
  const post: Record<string, unknown> = {
    title: article.title,
    slug: article.slug,
    html: article.html,
    status: article.status === 'publish' ? 'published' : 'draft',
    tags: tagsOf(article),
    custom_excerpt: clip(article.excerpt, MAX_EXCERPT_CHARS),
    meta_title: clip(article.metaTitle, MAX_META_TITLE_CHARS),
    meta_description: clip(article.metaDescription, MAX_META_DESCRIPTION_CHARS),
    canonical_url: article.canonicalUrl,
    // The article's JSON-LD (Article, FAQPage) belongs in the page head; Ghost writes codeinjection_head there.
    codeinjection_head: `<script type="application/ld+json">${article.schemaJsonLd.replace(/</g, '\\u003c')}</script>`,
    feature_image: featureImage,
    feature_image_alt: featureImage === null ? null : (article.featuredImage?.altText ?? null),
    published_at: new Date(article.publishedAt).toISOString(),
  };
  return post;
}

/**
 * A Ghost site through its Admin API, as an integration: a short-lived JWT made from the Admin API key signs each
 * call, and every call goes through the SSRF guard (the site's address is the customer's) with the delivery timeout.
 */
export class GhostDestination implements CmsDestination {
  private readonly client: ProviderClient;
  private readonly base: string;
  private readonly keyId: string;
  private readonly secret: Uint8Array;

  constructor(
    connection: GhostConnection,
    private readonly deps: CmsDeps,
  ) {
    this.base = `${connection.siteUrl.replace(/\/+$/, '')}/ghost/api/admin/`;
    const [id = '', secret = ''] = connection.credentials.adminApiKey.split(':');
    this.keyId = id;
    this.secret = Buffer.from(secret, 'hex');
    this.client = new ProviderClient({ label: GHOST_LABEL, reach: { kind: 'customer', fetcher: deps.fetcher }, timeoutMs: deps.timeoutMs, maxBytes: 8 * 1024 * 1024 });
  }

  async check(): Promise<{ summary: string }> {
    const site = await this.site();
    const major = Number.parseInt(site.version ?? '', 10);
    if (!Number.isInteger(major) || major < MIN_MAJOR_VERSION) {
      throw new DestinationError(GHOST_LABEL, 'refused', `Ghost ${site.version ?? '(version not given)'} is too old: Sightline needs Ghost ${MIN_MAJOR_VERSION} or later`, 'siteUrl');
    }
    // Reading posts needs the key: it proves the key, and that the integration may work with posts.
    await this.call({ method: 'GET', path: 'posts/?limit=1&fields=id' }, idsAnswer);
    return { summary: `Ghost ${site.version} at ${site.url ?? this.base}${site.title ? ` ("${site.title}")` : ''} accepted the Admin API key` };
  }

  async place(article: CmsArticle, earlier: PlacedPost | null): Promise<PlacedPost> {
    const existing = earlier === null ? await this.marked(article.id) : await this.current(earlier.remoteId);
    const featureImage = await this.featureImage(article, existing);
    const post = postBody(article, featureImage);
    const body = JSON.stringify({ posts: [existing === undefined ? post : { ...post, updated_at: existing.updated_at }] });
    const answer =
      existing === undefined
        ? await this.call({ method: 'POST', path: 'posts/?source=html', body }, postsAnswer)
        : await this.call({ method: 'PUT', path: `posts/${encodeURIComponent(existing.id)}/?source=html`, body }, postsAnswer);
    const placed = answer.posts[0];
    if (placed === undefined) throw new DestinationError(GHOST_LABEL, 'bad_answer', 'Ghost answered without the post', null);
    return { remoteId: placed.id, url: placed.status === 'published' ? (placed.url ?? null) : null };
  }

  /**
   * The featured image's address on Ghost: the post's own when it already is the upload of this image (a retry, or a
   * publish after an edit that kept the image), else the image downloaded through the SSRF guard and uploaded to
   * Ghost's media library (an outside address would leave the page depending on another server).
   */
  private async featureImage(article: CmsArticle, existing: GhostPost | undefined): Promise<string | null> {
    const image = article.featuredImage;
    if (image === null) return null;
    if (isUploadOf(existing?.feature_image, image.url)) return existing?.feature_image ?? null;
    const { bytes, type, extension } = await downloadImage(this.deps, GHOST_LABEL, image.url);
    const boundary = `sightline-${randomBytes(12).toString('hex')}`;
    const part = (disposition: string, content: Buffer | string, contentType?: string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`}\r\n`),
        Buffer.from(content),
        Buffer.from('\r\n'),
      ]);
    const body = Buffer.concat([
      part(`name="file"; filename="${uploadStem(image.url)}.${extension}"`, bytes, type),
      part('name="purpose"', 'image'),
      part('name="ref"', image.url),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const answer = await this.call({ method: 'POST', path: 'images/upload/', body, contentType: `multipart/form-data; boundary=${boundary}` }, imagesAnswer);
    return answer.images[0]?.url ?? null;
  }

  /** The post an earlier attempt made, found by its marker tag (Ghost's Admin API lists posts of every status). */
  private async marked(articleId: string): Promise<GhostPost | undefined> {
    const filter = encodeURIComponent(`tag:${markerTag(articleId).slug}`);
    const answer = await this.call({ method: 'GET', path: `posts/?filter=${filter}&limit=1&fields=${POST_FIELDS}` }, postsAnswer);
    return answer.posts[0];
  }

  /** The post as it is now (its updated_at is Ghost's collision check); gone when someone deleted it on the CMS. */
  private async current(remoteId: string): Promise<GhostPost | undefined> {
    try {
      return (await this.call({ method: 'GET', path: `posts/${encodeURIComponent(remoteId)}/?fields=${POST_FIELDS}` }, postsAnswer)).posts[0];
    } catch (error) {
      if (error instanceof DestinationError && error.status === 404) return undefined;
      throw error;
    }
  }

  private async site() {
    const answer = await this.send({ method: 'GET', url: `${this.base}site/`, headers: { 'accept-version': 'v5.0' } }, 'siteUrl');
    if (answer.status === 404) throw new DestinationError(GHOST_LABEL, 'refused', `no Ghost Admin API at ${this.base} (it answered 404): give the Ghost site's address`, 'siteUrl', { status: 404 });
    try {
      return this.client.read(answer, siteAnswer).site;
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, 'siteUrl', `${error.message}: is ${this.base} a Ghost site?`);
      throw error;
    }
  }

  private async call<T>(request: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: string | Buffer; contentType?: string }, schema: z.ZodType<T>): Promise<T> {
    const headers: Record<string, string> = { authorization: `Ghost ${await this.token()}`, 'accept-version': 'v5.0' };
    if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    const answer = await this.send({ method: request.method, url: `${this.base}${request.path}`, headers, ...(request.body === undefined ? {} : { body: request.body }) }, null);
    if (answer.status === 401 || answer.status === 403) {
      const failure = this.client.failure(answer);
      throw DestinationError.from(failure, ADMIN_API_KEY_FIELD, `Ghost refused the Admin API key (${answer.status}): ${failure.detail ?? 'no reason given'}`);
    }
    // A post changed on Ghost between our read and write: another attempt reads it again.
    if (answer.status === 409) {
      const failure = this.client.failure(answer);
      throw new DestinationError(GHOST_LABEL, 'unavailable', `Ghost reported an edit collision (the post changed meanwhile): ${failure.detail ?? 'no detail'}`, null, { status: 409 });
    }
    try {
      return this.client.read(answer, schema);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, null);
      throw error;
    }
  }

  private async send(call: ProviderCall, field: string | null): Promise<ProviderAnswer> {
    try {
      return await this.client.send(call);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, field ?? 'siteUrl');
      throw error;
    }
  }

  /** Ghost's token for integrations: HS256 over the hex-decoded secret, the key's id as kid, audience /admin/, five minutes at most. */
  private token(): Promise<string> {
    const issuedAt = Math.floor(this.deps.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: this.keyId })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_SECONDS)
      .setAudience('/admin/')
      .sign(this.secret);
  }
}
