import { z } from 'zod';
import { ProviderClient, type ProviderAnswer, type ProviderCall } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import type { CmsConnection, CmsDeps } from '../../publishing/cms/constructor.js';
import { downloadImage } from '../../publishing/cms/featuredImage.js';
import { DestinationError, type CmsArticle, type CmsDestination, type CmsImage, type PlacedPost } from '../../publishing/cms/destination.js';

export const WORDPRESS_LABEL = 'WordPress';
export const APPLICATION_PASSWORD_FIELD = 'wordpress.applicationPassword';

export interface WordPressSettings {
  username: string;
  postType: 'posts' | 'pages';
  /** The REST root the site announced (`…/wp-json/`, or `…/?rest_route=/` without pretty permalinks); null until found. */
  restRoot: string | null;
}

export interface WordPressCredentials {
  applicationPassword: string;
}

export type WordPressConnection = CmsConnection<WordPressSettings, WordPressCredentials>;

/** Application passwords arrived in WordPress 5.6; the REST index lists them under `authentication` when they can be used. */
const APPLICATION_PASSWORDS_VERSION = '5.6';
/** A featured image larger than this is refused rather than uploaded (hosts commonly cap uploads near it). */
/** WordPress's REST answers for a page of terms or posts; more than this is never needed to find one by name. */
const PER_PAGE = '100';
/** The plugin's REST namespace: present in the index when the Sightline plugin is active. */
const PLUGIN_NAMESPACE = 'sightline/v1';

const restIndex = z.object({
  name: z.string().nullish(),
  home: z.string().nullish(),
  namespaces: z.array(z.string()),
  // An empty PHP array is `[]` in JSON: no authentication schemes at all.
  authentication: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullish(),
});
type RestIndex = z.infer<typeof restIndex>;

const me = z.object({
  id: z.number(),
  name: z.string().nullish(),
  roles: z.array(z.string()).nullish(),
  capabilities: z.record(z.string(), z.boolean()).nullish(),
});
type Me = z.infer<typeof me>;

const pluginStatus = z.object({ version: z.string(), yoast: z.boolean(), rankMath: z.boolean() });
type PluginStatus = z.infer<typeof pluginStatus>;

const term = z.object({ id: z.number(), name: z.string() });
const user = z.object({ id: z.number(), name: z.string(), slug: z.string().nullish() });
const media = z.object({ id: z.number(), description: z.object({ raw: z.string().nullish() }).nullish() });
const post = z.object({
  id: z.number(),
  link: z.string().nullish(),
  status: z.string(),
  featured_media: z.number().nullish(),
  content: z.object({ raw: z.string().nullish() }).nullish(),
  // An empty meta object is `[]` in WordPress's JSON.
  meta: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
});
type WpPost = z.infer<typeof post>;
const wpError = z.object({ code: z.string(), message: z.string() });

/** The HTML comment that starts a post's content: finds an earlier attempt's post without the plugin (core REST cannot filter by meta). */
export function contentMarker(articleId: string): string {
  return `<!-- sightline:article ${articleId.replace(/-->|[^\w.:-]/g, '')} -->`;
}

/** `<…>; rel="https://api.w.org/"` in a Link header, or `<link rel="https://api.w.org/" href="…">` in the page's HTML. */
export function announcedRoot(answer: ProviderAnswer): string | null {
  const header = /<([^>]+)>\s*;\s*rel="?https:\/\/api\.w\.org\/"?/i.exec(answer.headers.link ?? '');
  if (header?.[1] !== undefined) return header[1];
  for (const tag of answer.text.match(/<link\b[^>]*>/gi) ?? []) {
    if (!/\brel=["']https:\/\/api\.w\.org\/["']/i.test(tag)) continue;
    const href = /\bhref=["']([^"']+)["']/i.exec(tag)?.[1];
    if (href !== undefined) return href.replace(/&#0?38;|&amp;/g, '&');
  }
  return null;
}

/** What a refused account lacks, by the capability WordPress names it with, and why the destination needs it. */
function neededCapabilities(postType: WordPressSettings['postType'], plugin: boolean): Array<[string, string]> {
  const needs: Array<[string, string]> = [
    postType === 'pages' ? ['publish_pages', 'to publish pages'] : ['publish_posts', 'to publish posts'],
    postType === 'pages' ? ['edit_pages', 'to write and update pages'] : ['edit_posts', 'to write and update posts'],
    ['upload_files', 'to upload featured images'],
    ['manage_categories', 'to create categories and tags'],
  ];
  if (!plugin) needs.push(['unfiltered_html', 'to put the JSON-LD script in the post (or install the Sightline plugin, which carries it in post meta)']);
  return needs;
}

function plainMessage(text: string): { code: string; message: string } | undefined {
  try {
    const parsed = wpError.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function filenameOf(image: CmsImage, slug: string, extension: string): string {
  const last = decodeURIComponent(new URL(image.url).pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '-');
  if (/\.[a-z0-9]{2,5}$/i.test(last)) return last;
  return `${slug || 'image'}.${extension}`;
}

/** The media's description: says where the image came from, so an update reuses the upload instead of adding another. */
function imageNote(image: CmsImage): string {
  return `Sightline featured image: ${image.url}`;
}

/** What the site offers the destination this time: the account's capabilities and the plugin, when active. */
interface Site {
  me: Me;
  /** The plugin's namespace is in the REST index. */
  pluginActive: boolean;
  /** Its status, read when the account may (edit_posts): null without the plugin or that right. */
  plugin: PluginStatus | null;
}

/**
 * A WordPress site through its REST API with an application password (Basic authentication, which WordPress accepts
 * only over https). Every call goes through the SSRF guard (the site's address is the customer's) with the delivery
 * timeout. The REST root is the one the site announces, remembered in the settings.
 */
export class WordPressDestination implements CmsDestination {
  private readonly client: ProviderClient;
  private readonly site: string;
  private readonly settings: WordPressSettings;
  private readonly authorization: string;
  private root: string | null;

  constructor(
    connection: WordPressConnection,
    private readonly deps: CmsDeps,
  ) {
    this.site = connection.siteUrl.replace(/\/+$/, '');
    this.settings = connection.settings;
    this.root = connection.settings.restRoot;
    // WordPress shows application passwords in groups of four with spaces, and strips them itself.
    this.authorization = `Basic ${Buffer.from(`${connection.settings.username}:${connection.credentials.applicationPassword}`).toString('base64')}`;
    this.client = new ProviderClient({ label: WORDPRESS_LABEL, reach: { kind: 'customer', fetcher: deps.fetcher }, timeoutMs: deps.timeoutMs, maxBytes: 16 * 1024 * 1024 });
  }

  async check(): Promise<{ summary: string; settings: WordPressSettings }> {
    const index = await this.index();
    const site = await this.visit(index);
    const missing = neededCapabilities(this.settings.postType, site.pluginActive).filter(([capability]) => site.me.capabilities?.[capability] !== true);
    if (missing.length > 0) {
      const list = missing.map(([capability, why]) => `${capability} (${why})`).join(', ');
      const roles = site.me.roles?.length ? ` (role: ${site.me.roles.join(', ')})` : '';
      throw new DestinationError(
        WORDPRESS_LABEL,
        'refused',
        `the WordPress account ${this.settings.username}${roles} lacks ${list}: give it the Editor or Administrator role, or use an account that has it`,
        APPLICATION_PASSWORD_FIELD,
      );
    }
    const plugin =
      site.plugin === null
        ? 'the Sightline plugin is not active (JSON-LD goes in the post body)'
        : `the Sightline plugin ${site.plugin.version} is active${site.plugin.yoast ? ', with Yoast SEO' : ''}${site.plugin.rankMath ? ', with Rank Math' : ''}`;
    const name = index.name ? ` ("${index.name}")` : '';
    return {
      summary: `WordPress at ${index.home ?? this.site}${name} accepted the application password of ${this.settings.username} (${site.me.roles?.join(', ') || 'no role'}); ${plugin}`,
      settings: { ...this.settings, restRoot: this.root },
    };
  }

  async place(article: CmsArticle, earlier: PlacedPost | null): Promise<PlacedPost> {
    const site = await this.visit(await this.index());
    const existing = earlier === null ? await this.marked(article.id, site) : await this.current(earlier.remoteId);
    const categories = article.categoryName === null || article.categoryName.trim() === '' ? [] : [await this.termId('categories', article.categoryName)];
    const tags = await this.termIds(article.keywords);
    const featured = article.featuredImage === null ? 0 : await this.featuredImage(article.featuredImage, article.slug, existing);
    const author = await this.authorId(article, site);
    const body = JSON.stringify(this.postBody(article, site, { categories, tags, featured, author }));
    const type = this.settings.postType;
    let placed: WpPost | undefined;
    if (existing !== undefined) {
      try {
        placed = await this.call({ method: 'POST', route: `/wp/v2/${type}/${existing.id}`, body }, post);
      } catch (error) {
        // Deleted on WordPress since it was found (or since the earlier delivery): made again below.
        if (!(error instanceof DestinationError && error.status === 404)) throw error;
      }
    }
    placed ??= await this.call({ method: 'POST', route: `/wp/v2/${type}`, body }, post);
    return { remoteId: String(placed.id), url: placed.status === 'publish' ? (placed.link ?? null) : null };
  }

  private postBody(article: CmsArticle, site: Site, parts: { categories: number[]; tags: number[]; featured: number; author: number | null }): Record<string, unknown> {
    const plugin = site.plugin;
    // Without the plugin the JSON-LD can only travel in the body, which WordPress keeps only from unfiltered_html.
    const jsonLd =
      !site.pluginActive && site.me.capabilities?.unfiltered_html === true
        ? `\n<script type="application/ld+json">${article.schemaJsonLd.replace(/</g, '\\u003c')}</script>`
        : '';
    const body: Record<string, unknown> = {
      title: article.title,
      slug: article.slug,
      content: `${contentMarker(article.id)}\n${article.html}${jsonLd}`,
      excerpt: article.excerpt ?? article.metaDescription ?? '',
      status: article.status,
      featured_media: parts.featured,
    };
    if (this.settings.postType === 'posts') {
      body.categories = parts.categories;
      body.tags = parts.tags;
    }
    if (parts.author !== null) body.author = parts.author;
    if (plugin !== null) {
      const meta: Record<string, string> = { sightline_article_id: article.id, sightline_schema_json_ld: article.schemaJsonLd };
      const title = article.metaTitle ?? article.title;
      const description = article.metaDescription ?? article.excerpt ?? '';
      const canonical = article.canonicalUrl ?? '';
      if (plugin.yoast) Object.assign(meta, { _yoast_wpseo_title: title, _yoast_wpseo_metadesc: description, _yoast_wpseo_canonical: canonical });
      if (plugin.rankMath) Object.assign(meta, { rank_math_title: title, rank_math_description: description, rank_math_canonical_url: canonical });
      body.meta = meta;
    }
    return body;
  }

  /**
   * The post an earlier attempt made, when a retry does not know it: core REST cannot filter by meta, so the candidates
   * are those whose text holds the article's id (the content marker), each then compared by its marker (the plugin's
   * meta, or the marker that starts its raw content). Never by slug alone: WordPress renames a clashing slug.
   */
  private async marked(articleId: string, site: Site): Promise<WpPost | undefined> {
    const candidates = await this.call(
      { method: 'GET', route: `/wp/v2/${this.settings.postType}`, query: { search: articleId, status: 'any', context: 'edit', per_page: PER_PAGE, _fields: 'id,link,status,featured_media,content,meta' } },
      z.array(post),
    );
    return candidates.find((candidate) => {
      if (site.plugin !== null && !Array.isArray(candidate.meta) && candidate.meta?.sightline_article_id === articleId) return true;
      return candidate.content?.raw?.startsWith(contentMarker(articleId)) === true;
    });
  }

  /** The post as it is now; gone when someone deleted it on WordPress. */
  private async current(remoteId: string): Promise<WpPost | undefined> {
    try {
      return await this.call({ method: 'GET', route: `/wp/v2/${this.settings.postType}/${encodeURIComponent(remoteId)}`, query: { context: 'edit', _fields: 'id,link,status,featured_media' } }, post);
    } catch (error) {
      if (error instanceof DestinationError && (error.status === 404 || error.status === 410)) return undefined;
      throw error;
    }
  }

  private async termIds(names: string[]): Promise<number[]> {
    const ids: number[] = [];
    const seen = new Set<string>();
    for (const name of names) {
      const key = name.trim().toLowerCase();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      ids.push(await this.termId('tags', name));
    }
    return ids;
  }

  /** A category or tag by its exact name (search matches parts of names), made when missing. */
  private async termId(taxonomy: 'categories' | 'tags', name: string): Promise<number> {
    const wanted = name.trim();
    const found = await this.call({ method: 'GET', route: `/wp/v2/${taxonomy}`, query: { search: wanted, per_page: PER_PAGE, _fields: 'id,name' } }, z.array(term));
    // WordPress stores names HTML-escaped (& as &amp;) and compares them without regard to case.
    const same = (stored: string) => stored.replace(/&amp;/g, '&').toLowerCase() === wanted.toLowerCase();
    const existing = found.find((candidate) => same(candidate.name));
    if (existing !== undefined) return existing.id;
    try {
      return (await this.call({ method: 'POST', route: `/wp/v2/${taxonomy}`, body: JSON.stringify({ name: wanted }) }, term)).id;
    } catch (error) {
      // Made meanwhile (another delivery): WordPress names the existing term in its refusal.
      const termId = error instanceof WordPressRefusal && error.code === 'term_exists' ? error.termId : undefined;
      if (termId !== undefined) return termId;
      throw error;
    }
  }

  /** The uploaded image's id: the post's own when it already has this image, else a new upload with its alt text. */
  private async featuredImage(image: CmsImage, slug: string, existing: WpPost | undefined): Promise<number> {
    if (existing?.featured_media) {
      try {
        const current = await this.call({ method: 'GET', route: `/wp/v2/media/${existing.featured_media}`, query: { context: 'edit', _fields: 'id,description' } }, media);
        if (current.description?.raw === imageNote(image)) {
          await this.call({ method: 'POST', route: `/wp/v2/media/${current.id}`, body: JSON.stringify({ alt_text: image.altText }) }, media);
          return current.id;
        }
      } catch (error) {
        if (!(error instanceof DestinationError && error.status === 404)) throw error;
      }
    }
    const { bytes, type: contentType, extension } = await downloadImage(this.deps, WORDPRESS_LABEL, image.url);
    const answer = await this.send({
      method: 'POST',
      url: this.endpoint('/wp/v2/media', {}),
      headers: {
        authorization: this.authorization,
        'content-type': contentType,
        'content-disposition': `attachment; filename="${filenameOf(image, slug, extension)}"`,
      },
      body: bytes,
    });
    const uploaded = this.read(answer, media);
    await this.call({ method: 'POST', route: `/wp/v2/media/${uploaded.id}`, body: JSON.stringify({ alt_text: image.altText, description: imageNote(image) }) }, media);
    return uploaded.id;
  }

  /** The WordPress user named as the article's author, when the account may assign posts to others; else the account itself. */
  private async authorId(article: CmsArticle, site: Site): Promise<number | null> {
    const name = article.author?.name.trim();
    const assigns = site.me.capabilities?.[this.settings.postType === 'pages' ? 'edit_others_pages' : 'edit_others_posts'] === true;
    if (name === undefined || name === '' || !assigns) return null;
    const found = await this.call({ method: 'GET', route: '/wp/v2/users', query: { search: name, per_page: PER_PAGE, _fields: 'id,name,slug' } }, z.array(user));
    const wanted = name.toLowerCase();
    return found.find((candidate) => candidate.name.toLowerCase() === wanted || candidate.slug?.toLowerCase() === wanted)?.id ?? null;
  }

  /** The account (users/me) and the plugin's status: who publishes, with what rights, and where the JSON-LD can go. */
  private async visit(index: RestIndex): Promise<Site> {
    let account: Me;
    try {
      account = await this.call({ method: 'GET', route: '/wp/v2/users/me', query: { context: 'edit' } }, me);
    } catch (error) {
      // A wrong application password leaves the request anonymous (or is refused outright, by version): either way a 401 here.
      if (error instanceof DestinationError && error.status === 401) {
        throw new DestinationError(
          WORDPRESS_LABEL,
          'auth',
          `WordPress did not accept the username and application password (${error.detail ?? 'no reason given'}); check both, and that the server passes the Authorization header on to WordPress`,
          APPLICATION_PASSWORD_FIELD,
          { status: 401 },
        );
      }
      throw error;
    }
    const pluginActive = index.namespaces.includes(PLUGIN_NAMESPACE);
    // The status route wants edit_posts: an account without it is refused for that by check(), not by this call.
    const plugin = pluginActive && account.capabilities?.edit_posts === true ? await this.call({ method: 'GET', route: '/sightline/v1/status' }, pluginStatus) : null;
    return { me: account, pluginActive, plugin };
  }

  /** The REST index at the remembered root, found again when it stops answering (permalinks changed, site moved). */
  private async index(): Promise<RestIndex> {
    if (!this.site.startsWith('https://')) {
      throw new DestinationError(WORDPRESS_LABEL, 'refused', 'must be an https address: WordPress accepts application passwords only over https', 'siteUrl');
    }
    let index: RestIndex | undefined;
    if (this.root !== null) {
      try {
        index = await this.readIndex();
      } catch (error) {
        if (!(error instanceof DestinationError) || error.transient) throw error;
      }
    }
    if (index === undefined) {
      this.root = await this.discover();
      index = await this.readIndex();
    }
    if (!index.namespaces.includes('wp/v2')) throw new DestinationError(WORDPRESS_LABEL, 'refused', `the REST API at ${this.root} has no wp/v2 routes: is the REST API turned off?`, 'siteUrl');
    if (Array.isArray(index.authentication) || index.authentication?.['application-passwords'] === undefined) {
      throw new DestinationError(
        WORDPRESS_LABEL,
        'refused',
        `WordPress at ${this.site} does not offer application passwords: it needs WordPress ${APPLICATION_PASSWORDS_VERSION} or later, served over https, with application passwords not turned off`,
        'siteUrl',
      );
    }
    return index;
  }

  private async readIndex(): Promise<RestIndex> {
    // The index is public: read without the password, so a wrong one is told apart at users/me, not here.
    const answer = await this.send({ method: 'GET', url: this.endpoint('/', {}) }, 'siteUrl');
    try {
      return this.client.read(answer, restIndex);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, 'siteUrl', `${error.message}: no WordPress REST API at ${this.root} (is ${this.site} a WordPress site with its REST API on?)`);
      throw error;
    }
  }

  /** The REST root the home page announces (Link header, or the link tag in its HTML); `?rest_route=/` when it names none. */
  private async discover(): Promise<string> {
    const home = await this.send({ method: 'GET', url: `${this.site}/`, headers: { accept: 'text/html' } }, 'siteUrl');
    const announced = announcedRoot(home);
    if (announced === null) return `${this.site}/?rest_route=/`;
    let root: URL;
    try {
      root = new URL(announced, `${this.site}/`);
    } catch {
      throw new DestinationError(WORDPRESS_LABEL, 'bad_answer', `${this.site} announces a REST root that is not an address: ${announced.slice(0, 200)}`, 'siteUrl');
    }
    // The application password goes wherever the root is: only over https.
    if (root.protocol !== 'https:') throw new DestinationError(WORDPRESS_LABEL, 'refused', `${this.site} announces its REST API at ${root.href}, not https: set WordPress's addresses to https`, 'siteUrl');
    return root.href;
  }

  /** A route's address under the root: appended to `…/wp-json/`, or as the rest_route parameter when that is the root's form. */
  private endpoint(route: string, query: Record<string, string>): URL {
    const root = this.root ?? `${this.site}/?rest_route=/`;
    const url = new URL(root);
    if (url.searchParams.has('rest_route')) url.searchParams.set('rest_route', route);
    else url.pathname = `${url.pathname.replace(/\/+$/, '')}${route}`;
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  private async call<T>(request: { method: 'GET' | 'POST'; route: string; query?: Record<string, string>; body?: string }, schema: z.ZodType<T>): Promise<T> {
    const headers: Record<string, string> = { authorization: this.authorization };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.send({ method: request.method, url: this.endpoint(request.route, request.query ?? {}), headers, ...(request.body === undefined ? {} : { body: request.body }) });
    return this.read(answer, schema);
  }

  /** A 2xx answer read through `schema`; any other, WordPress's refusal (`code: message`) as the kind its status means. */
  private read<T>(answer: ProviderAnswer, schema: z.ZodType<T>): T {
    if (answer.status < 200 || answer.status >= 300) {
      const failure = this.client.failure(answer);
      const words = plainMessage(answer.text);
      const detail = words === undefined ? (failure.detail ?? 'no reason given') : `${words.code}: ${words.message}`;
      const field = failure.kind === 'auth' ? APPLICATION_PASSWORD_FIELD : null;
      const facts = { status: answer.status, detail, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }) };
      if (words !== undefined && failure.kind === 'refused') throw new WordPressRefusal(`WordPress answered ${answer.status}: ${detail}`, words.code, answer.text, facts);
      throw new DestinationError(WORDPRESS_LABEL, failure.kind, `WordPress answered ${answer.status}: ${detail}`, field, facts);
    }
    try {
      return this.client.read(answer, schema);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, null);
      throw error;
    }
  }

  private async send(call: ProviderCall, field: string | null = null): Promise<ProviderAnswer> {
    try {
      return await this.client.send(call);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, field ?? 'siteUrl');
      throw error;
    }
  }
}

/** WordPress refused the request with its own code (400, 404…): kept so callers can act on the code (term_exists). */
class WordPressRefusal extends DestinationError {
  readonly termId: number | undefined;

  constructor(
    message: string,
    readonly code: string,
    text: string,
    facts: { status: number; detail: string },
  ) {
    super(WORDPRESS_LABEL, 'refused', message, null, facts);
    const data = z.object({ data: z.object({ term_id: z.number() }) }).safeParse(JSON.parse(text));
    this.termId = data.success ? data.data.data.term_id : undefined;
  }
}
