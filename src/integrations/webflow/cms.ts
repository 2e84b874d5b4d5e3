import { z } from 'zod';
import { ProviderClient, type ProviderAnswer } from '../kit/client.js';
import { ProviderError } from '../kit/providerError.js';
import type { CmsConnection, CmsDeps } from '../../publishing/cms/constructor.js';
import { DestinationError, type CmsArticle, type CmsDestination, type PlacedPost } from '../../publishing/cms/destination.js';
import type { WebflowSettings } from './siteBuilder.js';

/**
 * A Webflow CMS collection as a destination, through Webflow's Data API v2 (the operations of
 * github.com/webflow/openapi-spec, openapi/v2.yml: token introspect, sites, collections, collection items). The token
 * is the workspace's Webflow connection (the site builder's OAuth), read at each call; the destination holds only the
 * collection and the owner's mapping of article parts to the collection's field slugs.
 */

export const WEBFLOW_CMS_LABEL = 'Webflow';
/** What writing to a collection needs of the connection, besides the site builder's scopes. */
export const CMS_SCOPES = ['cms:read', 'cms:write'] as const;
const COLLECTION_FIELD = 'webflow.collectionId';
const CONNECTION_FIELD = 'webflow';
/** Webflow answers a 429 with Retry-After in seconds; its limits count per minute, so a longer wait is not believed. */
const MAX_WAIT_MS = 3_600_000;

/** The parts of an article a collection can take, each into a field of these Webflow types. */
export const MAPPABLE_PARTS = {
  body: ['RichText'],
  excerpt: ['PlainText', 'RichText'],
  metaTitle: ['PlainText'],
  metaDescription: ['PlainText'],
  featuredImage: ['Image'],
  category: ['PlainText'],
  tags: ['PlainText'],
  faq: ['RichText', 'PlainText'],
  schemaJsonLd: ['PlainText'],
} as const satisfies Record<string, readonly string[]>;

export type MappablePart = keyof typeof MAPPABLE_PARTS;

/** Every item's own fields, filled with the article's title and slug: a part mapped onto one would overwrite them. */
const ITEM_OWN_FIELDS: readonly string[] = ['name', 'slug'];

/** Whether a field of this Webflow type can take the part: the rule check() enforces and the dashboard's picker offers. */
export function fieldFits(part: MappablePart, fieldType: string): boolean {
  const fits: readonly string[] = MAPPABLE_PARTS[part];
  return fits.includes(fieldType);
}
/** The owner's mapping: article part → the collection field's slug. `body` is required; name and slug are Webflow's own. */
export type FieldMapping = { body: string } & Partial<Record<Exclude<MappablePart, 'body'>, string>>;

export interface WebflowCmsSettings {
  collectionId: string;
  fields: FieldMapping;
}

export type WebflowCmsConnection = CmsConnection<WebflowCmsSettings, Record<string, never>>;

const fieldSchema = z.object({ id: z.string(), slug: z.string().nullish(), type: z.string(), displayName: z.string().nullish(), isRequired: z.boolean().nullish() });
const collectionSchema = z.object({ id: z.string(), displayName: z.string().nullish(), slug: z.string().nullish(), fields: z.array(fieldSchema).nullish() });
const collectionListSchema = z.object({ collections: z.array(z.object({ id: z.string(), displayName: z.string().nullish(), slug: z.string().nullish() })).nullish() });
const introspectSchema = z.object({
  authorization: z.object({ scope: z.string().nullish(), authorizedTo: z.object({ siteIds: z.array(z.string()).nullish() }).nullish() }),
});
const siteSchema = z.object({
  id: z.string(),
  displayName: z.string().nullish(),
  shortName: z.string().nullish(),
  customDomains: z.array(z.object({ id: z.string(), url: z.string().nullish() })).nullish(),
});
const sitesSchema = z.object({ sites: z.array(siteSchema).nullish() });
const itemSchema = z.object({ id: z.string(), isDraft: z.boolean().nullish(), fieldData: z.object({ name: z.string().nullish(), slug: z.string().nullish() }).nullish() });
const itemsSchema = z.object({ items: z.array(itemSchema).nullish() });

type Collection = z.infer<typeof collectionSchema>;
type Site = z.infer<typeof siteSchema>;
type Item = z.infer<typeof itemSchema>;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The hosts a site publishes to: its custom domains and its webflow.io subdomain. */
export function publishHosts(site: Site): string[] {
  const custom = (site.customDomains ?? []).flatMap((domain) => (domain.url ? [domain.url.toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '')] : []));
  return site.shortName ? [...custom, `${site.shortName.toLowerCase()}.webflow.io`] : custom;
}

/** An article part in the shape the field's type takes; undefined when the article has nothing for it. */
function partValue(article: CmsArticle, part: MappablePart, fieldType: string): unknown {
  switch (part) {
    case 'body':
      return article.html;
    case 'excerpt':
      return article.excerpt === null ? undefined : fieldType === 'RichText' ? `<p>${escapeHtml(article.excerpt)}</p>` : article.excerpt;
    case 'metaTitle':
      return article.metaTitle ?? undefined;
    case 'metaDescription':
      return article.metaDescription ?? undefined;
    case 'featuredImage':
      // Webflow fetches the image from the URL itself and hosts it.
      return article.featuredImage === null ? undefined : { url: article.featuredImage.url, alt: article.featuredImage.altText };
    case 'category':
      return article.categoryName ?? undefined;
    case 'tags':
      return article.keywords.length === 0 ? undefined : article.keywords.join(', ');
    case 'faq':
      if (article.faq.length === 0) return undefined;
      if (fieldType === 'RichText') return article.faq.map((entry) => `<h3>${escapeHtml(entry.question)}</h3><p>${escapeHtml(entry.answer)}</p>`).join('');
      return article.faq.map((entry) => `${entry.question}\n${entry.answer}`).join('\n\n');
    case 'schemaJsonLd':
      return article.schemaJsonLd;
  }
}

export class WebflowCmsDestination implements CmsDestination {
  constructor(
    private readonly connection: WebflowCmsConnection,
    private readonly deps: CmsDeps,
  ) {}

  async check(): Promise<{ summary: string }> {
    return this.withApi(async (api) => {
      const grant = await api.call('GET', '/token/introspect', introspectSchema, CONNECTION_FIELD);
      const scopes = new Set((grant.authorization.scope ?? '').split(/[\s,]+/).filter((scope) => scope !== ''));
      const missing = CMS_SCOPES.filter((scope) => !scopes.has(scope));
      if (missing.length > 0) {
        throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', `the Webflow connection was made without the scopes ${missing.join(', ')}: reconnect Webflow in the dashboard to grant CMS access`, CONNECTION_FIELD);
      }
      const site = await this.siteOfAddress(api);
      const collection = await this.collection(api);
      const ofSite = await api.call('GET', `/sites/${encodeURIComponent(site.id)}/collections`, collectionListSchema, COLLECTION_FIELD);
      if (!(ofSite.collections ?? []).some((listed) => listed.id === collection.id)) {
        throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', `collection ${collection.id} is not a collection of the site ${site.displayName ?? site.id} that serves ${this.connection.siteUrl}`, COLLECTION_FIELD);
      }
      this.fieldTypes(collection);
      const mapped = Object.entries(this.connection.settings.fields)
        .map(([part, slug]) => `${part}→${slug}`)
        .join(', ');
      return {
        summary: `Webflow site "${site.displayName ?? site.id}" (${publishHosts(site).join(', ')}): collection "${collection.displayName ?? collection.id}" at /${collection.slug ?? ''}/ takes ${mapped}`,
      };
    });
  }

  async place(article: CmsArticle, earlier: PlacedPost | null): Promise<PlacedPost> {
    return this.withApi(async (api) => {
      const collection = await this.collection(api);
      const fieldData = this.fieldData(article, this.fieldTypes(collection));
      const existing = earlier === null ? await this.earlierAttempt(api, article) : earlier.remoteId;
      const publish = article.status === 'publish';
      const collectionPath = `/collections/${encodeURIComponent(this.connection.settings.collectionId)}`;
      let item: Item | undefined;
      if (existing !== undefined) {
        // The staged item is updated, then published: it works whether the item is live already or was a draft.
        item = await api.optional('PATCH', `${collectionPath}/items/${encodeURIComponent(existing)}`, itemSchema, { isDraft: !publish, fieldData });
        if (item !== undefined && publish) await api.call('POST', `${collectionPath}/items/publish`, z.unknown(), null, { itemIds: [item.id] });
      }
      // New, or deleted in Webflow since: created, live at once for a publish (one call), staged as a draft otherwise.
      item ??= await api.call('POST', publish ? `${collectionPath}/items/live` : `${collectionPath}/items`, itemSchema, null, { isDraft: !publish, fieldData });
      const slug = item.fieldData?.slug ?? article.slug;
      return { remoteId: item.id, url: publish ? this.liveUrl(collection, slug) : null };
    });
  }

  /**
   * An item a timed-out attempt made: Webflow keeps a slug unique within a collection, so it is the item with the
   * article's slug; its name (the title) is the marker that it is this article's and not one the owner made.
   */
  private async earlierAttempt(api: WebflowCall, article: CmsArticle): Promise<string | undefined> {
    const query = new URLSearchParams({ slug: article.slug, limit: '1' });
    const found = (await api.call('GET', `/collections/${encodeURIComponent(this.connection.settings.collectionId)}/items?${query}`, itemsSchema, null)).items?.[0];
    if (found === undefined) return undefined;
    if (found.fieldData?.name !== article.title) {
      throw new DestinationError(
        WEBFLOW_CMS_LABEL,
        'refused',
        `the collection already has an item with the slug ${article.slug} ("${found.fieldData?.name ?? found.id}") that Sightline did not make for this article: rename or delete it in Webflow`,
        null,
      );
    }
    return found.id;
  }

  /** Webflow's collection pages live at /<collection slug>/<item slug> on each of the site's domains. */
  private liveUrl(collection: Collection, slug: string): string | null {
    if (!collection.slug) return null;
    return new URL(`/${encodeURIComponent(collection.slug)}/${encodeURIComponent(slug)}`, this.connection.siteUrl).href;
  }

  /** The site of the connection that publishes to siteUrl's host. */
  private async siteOfAddress(api: WebflowCall): Promise<Site> {
    const host = new URL(this.connection.siteUrl).hostname.toLowerCase();
    const sites = (await api.call('GET', '/sites', sitesSchema, CONNECTION_FIELD)).sites ?? [];
    const site = sites.find((candidate) => publishHosts(candidate).includes(host));
    if (site !== undefined) return site;
    const known = sites.flatMap((candidate) => publishHosts(candidate)).join(', ');
    throw new DestinationError(
      WEBFLOW_CMS_LABEL,
      'refused',
      `${host} is not where a Webflow site of this connection publishes${known === '' ? ' (the connection reaches no site: reconnect Webflow and pick the site)' : `: its sites publish to ${known}`}`,
      'siteUrl',
    );
  }

  private async collection(api: WebflowCall): Promise<Collection> {
    const id = this.connection.settings.collectionId;
    const collection = await api.optional('GET', `/collections/${encodeURIComponent(id)}`, collectionSchema);
    if (collection === undefined) throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', `Webflow knows no collection ${id} for this connection`, COLLECTION_FIELD, { status: 404 });
    return collection;
  }

  /** Each mapped field, checked to exist in the collection with a type that fits its part; answers slug → type. */
  private fieldTypes(collection: Collection): Map<string, string> {
    const bySlug = new Map((collection.fields ?? []).flatMap((field) => (field.slug ? [[field.slug, field] as const] : [])));
    const types = new Map<string, string>();
    for (const [part, slug] of Object.entries(this.connection.settings.fields) as Array<[MappablePart, string]>) {
      const field = bySlug.get(slug);
      if (field === undefined) {
        throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', `the collection "${collection.displayName ?? collection.id}" has no field with the slug ${slug}`, `webflow.fields.${part}`);
      }
      if (ITEM_OWN_FIELDS.includes(slug)) {
        throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', `the field ${slug} is every item's own, filled with the article's ${slug === 'name' ? 'title' : 'slug'}: map ${part} to another field`, `webflow.fields.${part}`);
      }
      if (!fieldFits(part, field.type)) {
        throw new DestinationError(
          WEBFLOW_CMS_LABEL,
          'refused',
          `the field ${slug} ("${field.displayName ?? slug}") is ${field.type}; ${part} needs a field of type ${MAPPABLE_PARTS[part].join(' or ')}`,
          `webflow.fields.${part}`,
        );
      }
      types.set(slug, field.type);
    }
    return types;
  }

  /** name and slug are every item's own fields; the mapped parts follow, each in its field's shape. */
  private fieldData(article: CmsArticle, types: Map<string, string>): Record<string, unknown> {
    const data: Record<string, unknown> = { name: article.title, slug: article.slug };
    for (const [part, slug] of Object.entries(this.connection.settings.fields) as Array<[MappablePart, string]>) {
      const value = partValue(article, part, types.get(slug) ?? '');
      if (value !== undefined) data[slug] = value;
    }
    return data;
  }

  private withApi<T>(use: (api: WebflowCall) => Promise<T>): Promise<T> {
    return withWebflow(this.deps, use);
  }
}

/** A collection the workspace's connection reaches, as the dashboard offers it: its site's name for telling them apart. */
export interface WebflowCollectionChoice {
  id: string;
  displayName: string;
  siteName: string;
}

/** A field of a collection as the dashboard offers it for a part. */
export interface WebflowFieldChoice {
  slug: string;
  displayName: string;
  type: string;
}

/** The collections of every site the connection reaches (Webflow lists collections per site), for the owner to pick one. */
export function listWebflowCollections(deps: CmsDeps): Promise<WebflowCollectionChoice[]> {
  return withWebflow(deps, async (api) => {
    const sites = (await api.call('GET', '/sites', sitesSchema, CONNECTION_FIELD)).sites ?? [];
    const perSite = await Promise.all(
      sites.map(async (site) => {
        const listed = (await api.call('GET', `/sites/${encodeURIComponent(site.id)}/collections`, collectionListSchema, COLLECTION_FIELD)).collections ?? [];
        return listed.map((collection) => ({ id: collection.id, displayName: collection.displayName ?? collection.slug ?? collection.id, siteName: site.displayName ?? site.id }));
      }),
    );
    return perSite.flat();
  });
}

/** A collection's fields a part can be mapped onto (by slug; not the item's own name and slug); undefined when Webflow knows no such collection. */
export function webflowCollectionFields(deps: CmsDeps, collectionId: string): Promise<WebflowFieldChoice[] | undefined> {
  return withWebflow(deps, async (api) => {
    const collection = await api.optional('GET', `/collections/${encodeURIComponent(collectionId)}`, collectionSchema);
    if (collection === undefined) return undefined;
    return (collection.fields ?? []).flatMap((field) => (field.slug && !ITEM_OWN_FIELDS.includes(field.slug) ? [{ slug: field.slug, displayName: field.displayName ?? field.slug, type: field.type }] : []));
  });
}

/** A use of the Data API with the workspace's token, read at each call; refused when the server or workspace lacks Webflow. */
async function withWebflow<T>(deps: CmsDeps, use: (api: WebflowCall) => Promise<T>): Promise<T> {
  const { app, accessToken } = await deps.connections.webflow();
  if (app === undefined) {
    throw new DestinationError(WEBFLOW_CMS_LABEL, 'not_configured', 'Webflow is not configured on this server: the operator must set WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET', CONNECTION_FIELD);
  }
  if (accessToken === undefined) {
    throw new DestinationError(WEBFLOW_CMS_LABEL, 'refused', 'Webflow is not connected to this workspace: an owner connects it on the Settings page of the dashboard', CONNECTION_FIELD);
  }
  const api = new WebflowCall(app, accessToken, deps);
  try {
    return await use(api);
  } finally {
    await api.close();
  }
}

/** One call to the Data API v2 with the workspace's token: Webflow's statuses in the destination's words. */
class WebflowCall {
  private readonly client: ProviderClient;

  constructor(
    private readonly app: WebflowSettings,
    private readonly accessToken: string,
    deps: CmsDeps,
  ) {
    // Webflow's address is the operator's setting (the real API, or a local server in tests), not the customer's.
    this.client = new ProviderClient({ label: WEBFLOW_CMS_LABEL, reach: { kind: 'operator' }, timeoutMs: deps.timeoutMs, maxWaitMs: MAX_WAIT_MS, maxBytes: 8 * 1024 * 1024 });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** The answer, or undefined when Webflow answers 404 (a collection or item that does not exist, or was deleted). */
  async optional<T>(method: 'GET' | 'PATCH', path: string, schema: z.ZodType<T>, body?: unknown): Promise<T | undefined> {
    const answer = await this.send(method, path, null, body);
    if (answer.status === 404) return undefined;
    return this.read(answer, schema, null);
  }

  async call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, schema: z.ZodType<T>, field: string | null, body?: unknown): Promise<T> {
    return this.read(await this.send(method, path, field, body), schema, field);
  }

  private async send(method: 'GET' | 'POST' | 'PATCH', path: string, field: string | null, body: unknown): Promise<ProviderAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.accessToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.client.send({ method, url: `${this.app.apiBaseUrl}/v2${path}`, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, field);
      throw error;
    }
  }

  private read<T>(answer: ProviderAnswer, schema: z.ZodType<T>, field: string | null): T {
    if (answer.status === 401 || answer.status === 403) {
      const failure = this.client.failure(answer);
      const what = answer.status === 401 ? 'the connection\'s token (revoked?)' : 'the request (a scope missing?)';
      throw DestinationError.from(failure, CONNECTION_FIELD, `Webflow refused ${what} (${answer.status}): ${failure.detail ?? 'no reason given'}: reconnect Webflow in the dashboard`);
    }
    try {
      return this.client.read(answer, schema);
    } catch (error) {
      if (error instanceof ProviderError) throw DestinationError.from(error, field);
      throw error;
    }
  }
}
