import { SignJWT } from 'jose';
import { z } from 'zod';
import { ProviderClient, type ProviderAnswer, type ProviderCall } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import type { CmsConnection, CmsDeps } from '../../publishing/cms/constructor.js';
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

/** `id:secret`, the secret hex: what Ghost shows as the Admin API key. */
export const ADMIN_API_KEY = /^[0-9a-f]{24}:[0-9a-f]{64}$/i;

const siteAnswer = z.object({ site: z.object({ title: z.string().nullish(), url: z.string().nullish(), version: z.string().nullish() }) });
const postSchema = z.object({ id: z.string(), url: z.string().nullish(), updated_at: z.string().nullish(), status: z.string() });
const postsAnswer = z.object({ posts: z.array(postSchema) });
type GhostPost = z.infer<typeof postSchema>;

/** The internal tag that marks the post of one Sightline article (internal tags start with `#`; Ghost slugs them `hash-…`). */
export function markerTag(articleId: string): { name: string; slug: string } {
  const stem = `sightline-${articleId.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return { name: `#${stem}`, slug: `hash-${stem}` };
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

/** The post as Ghost's Admin API takes it (`?source=html` converts the HTML into Ghost's own format). */
function postBody(article: CmsArticle): Record<string, unknown> {
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
    feature_image: article.featuredImage?.url ?? null,
    feature_image_alt: article.featuredImage?.altText ?? null,
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
    await this.call({ method: 'GET', path: 'posts/?limit=1&fields=id' }, postsAnswer);
    return { summary: `Ghost ${site.version} at ${site.url ?? this.base}${site.title ? ` ("${site.title}")` : ''} accepted the Admin API key` };
  }

  async place(article: CmsArticle, earlier: PlacedPost | null): Promise<PlacedPost> {
    const existing = earlier === null ? await this.marked(article.id) : await this.current(earlier.remoteId);
    const body = JSON.stringify({ posts: [existing === undefined ? postBody(article) : { ...postBody(article), updated_at: existing.updated_at }] });
    const answer =
      existing === undefined
        ? await this.call({ method: 'POST', path: 'posts/?source=html', body }, postsAnswer)
        : await this.call({ method: 'PUT', path: `posts/${encodeURIComponent(existing.id)}/?source=html`, body }, postsAnswer);
    const post = answer.posts[0];
    if (post === undefined) throw new DestinationError(GHOST_LABEL, 'bad_answer', 'Ghost answered without the post', null);
    return { remoteId: post.id, url: post.status === 'published' ? (post.url ?? null) : null };
  }

  /** The post an earlier attempt made, found by its marker tag (Ghost's Admin API lists posts of every status). */
  private async marked(articleId: string): Promise<GhostPost | undefined> {
    const filter = encodeURIComponent(`tag:${markerTag(articleId).slug}`);
    const answer = await this.call({ method: 'GET', path: `posts/?filter=${filter}&limit=1&fields=id,url,updated_at,status` }, postsAnswer);
    return answer.posts[0];
  }

  /** The post as it is now (its updated_at is Ghost's collision check); gone when someone deleted it on the CMS. */
  private async current(remoteId: string): Promise<GhostPost | undefined> {
    try {
      return (await this.call({ method: 'GET', path: `posts/${encodeURIComponent(remoteId)}/?fields=id,url,updated_at,status` }, postsAnswer)).posts[0];
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

  private async call<T>(request: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: string }, schema: z.ZodType<T>): Promise<T> {
    const headers: Record<string, string> = { authorization: `Ghost ${await this.token()}`, 'accept-version': 'v5.0' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
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
