import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { fromJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';
import { findArticle, type ArticleRow } from '../content/articles.js';
import { renderArticle, type RenderedArticle } from '../content/render.js';
import { ARTICLE_DELIVERY_ATTEMPTS, cancelPendingDeliveries, recordDelivery, type DeliveryEvent } from './deliveries.js';
import type { CmsArticle } from './cms/destination.js';
import { destinationRole, kindOf, type DestinationRow } from './destinations.js';

/**
 * Only a written article can be published or edited: not a planned one, not one being written (the write would
 * overwrite the change), not an archived one.
 */
export function requireWritten(article: ArticleRow): void {
  if (article.writing_job_id !== null) throw BadInputError.field('contentId', `article ${article.id} is being written; try again when the write job is done`);
  if (article.status === 'planned') throw BadInputError.field('contentId', `article ${article.id} is not written yet; write it with generate_article first`);
  if (article.status === 'archived') throw BadInputError.field('contentId', `article ${article.id} is archived; archived articles are not published or changed`);
}

/** Where a publish goes: the active destination (it serves the site), then every feed. Removed ones never. */
export async function publishTargets(db: Kysely<Database>, workspaceId: string): Promise<DestinationRow[]> {
  return db
    .selectFrom('destinations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .where((eb) => eb.or([eb('active', '=', 1), eb('site_url', 'is', null)]))
    .orderBy('active', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

const NO_DESTINATION =
  'no destination to publish to: create one with create_destination (with a siteUrl to serve the site, or without one as a feed), or make one with a siteUrl active with activate_destination';

interface PlannedDelivery {
  destination: DestinationRow;
  event: DeliveryEvent;
}

/** `article.published` until this destination has received the article once, `article.updated` after that. */
async function eventFor(db: Kysely<Database>, destinationId: string, articleId: string): Promise<DeliveryEvent> {
  const received = await db
    .selectFrom('deliveries')
    .select('id')
    .where('destination_id', '=', destinationId)
    .where('article_id', '=', articleId)
    .where('state', '=', 'delivered')
    .limit(1)
    .executeTakeFirst();
  return received === undefined ? 'article.published' : 'article.updated';
}

/** The lookups and checks of a publish, shared by its dry run: same 404s, same 400s. */
async function planPublish(db: Kysely<Database>, workspaceId: string, articleId: string): Promise<{ article: ArticleRow; deliveries: PlannedDelivery[] }> {
  const article = await findArticle(db, workspaceId, articleId);
  requireWritten(article);
  const targets = await publishTargets(db, workspaceId);
  if (targets.length === 0) throw new BadInputError(NO_DESTINATION);
  const deliveries: PlannedDelivery[] = [];
  for (const destination of targets) deliveries.push({ destination, event: await eventFor(db, destination.id, article.id) });
  return { article, deliveries };
}

/** Optional fields are left out rather than sent as null: receivers read absence as "not given". */
function withoutNulls(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * The article as it is published, from its rendering: what a CMS receives, and what the webhook article object is made
 * of (one source for both). The featured image is the only image an article carries (alt text defaults to the title).
 */
export function publishedArticle(article: ArticleRow, rendered: RenderedArticle, publishAs: 'publish' | 'draft', publishedAt: number): CmsArticle {
  return {
    id: article.id,
    title: article.title,
    slug: article.slug,
    html: rendered.html,
    markdown: rendered.markdown,
    excerpt: article.meta_description,
    metaTitle: article.meta_title,
    metaDescription: article.meta_description,
    keywords: fromJson<string[]>(article.keywords),
    categoryName: article.category_name,
    faq: rendered.faq,
    schemaJsonLd: rendered.schemaJsonLd,
    canonicalUrl: article.url,
    language: rendered.language,
    author: rendered.author,
    featuredImage: article.featured_image_url === null ? null : { url: article.featured_image_url, altText: article.featured_image_alt ?? article.title },
    images: [],
    publishedAt,
    status: publishAs,
  };
}

/**
 * The webhook article object of the specification's Events part. The featured image is `featuredImageUrl`, and in
 * `images` with its alt text (`placement: "featured"`), since featuredImageUrl alone cannot carry one.
 */
export function webhookArticle(article: CmsArticle): Record<string, unknown> {
  return withoutNulls({
    id: article.id,
    title: article.title,
    slug: article.slug,
    html: article.html,
    markdown: article.markdown,
    metaTitle: article.metaTitle,
    metaDescription: article.metaDescription,
    keywords: article.keywords,
    faq: article.faq,
    schemaJsonLd: article.schemaJsonLd,
    canonicalUrl: article.canonicalUrl,
    language: article.language,
    author: article.author,
    categoryName: article.categoryName,
    featuredImageUrl: article.featuredImage?.url,
    images: article.featuredImage === null ? null : [{ url: article.featuredImage.url, altText: article.featuredImage.altText, placement: 'featured' }],
    publishedAt: article.publishedAt,
    status: article.status,
  });
}

/** What a delivery carries: a webhook's exact article object, or the whole article for a CMS to place. */
function deliveredArticle(destination: DestinationRow, article: CmsArticle): Record<string, unknown> {
  return kindOf(destination) === 'webhook' ? webhookArticle(article) : { ...article };
}

function destinationLabel(destination: DestinationRow): string {
  const role = destination.active === 1 ? 'serves the site' : 'feed';
  return `"${destination.name}" (${role}, ${destination.endpoint_url}, as ${destination.publish_as})`;
}

export async function describePublish(db: Kysely<Database>, workspaceId: string, articleId: string): Promise<string> {
  const { article, deliveries } = await planPublish(db, workspaceId, articleId);
  const sends = deliveries.map((d) => `${d.event} to ${destinationLabel(d.destination)}`).join('; ');
  const first = article.published_at === null ? 'first publish' : 'published before; its publish date stays';
  return (
    `Would publish "${article.title}" (${article.status}, ${first}) and send: ${sends}. ` +
    'Each delivery is signed and sent by the job worker right after; outcomes show on the destinations (list_destinations). Repeat with confirm: true to publish.'
  );
}

// A type, not an interface: handlers answer plain JSON objects, and only type aliases fit an index signature.
export type PublishSummary = {
  contentId: string;
  status: 'published';
  publishedAt: string;
  /** True when this publish set the article's publish date. */
  firstPublish: boolean;
  deliveries: Array<{ deliveryId: string; jobId: string; destinationId: string; destinationName: string; role: 'site' | 'feed'; event: DeliveryEvent }>;
};

/**
 * Renders an article as it is published (canonical URL = its live address when known) and keeps the rendered HTML and
 * JSON-LD on it, which the Content API serves, as updated `at`; `also` sets more columns in the same write.
 */
export async function storeRendered(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  article: ArticleRow,
  at: number,
  also: { status?: 'published'; published_at?: number } = {},
): Promise<RenderedArticle> {
  const rendered = await renderArticle(db, clock, workspaceId, article, { canonicalUrl: article.url });
  await db
    .updateTable('articles')
    .set({ html: rendered.html, schema_json_ld: rendered.schemaJsonLd, ...also, updated_at: at })
    .where('id', '=', article.id)
    .execute();
  return rendered;
}

/**
 * Publishes (or publishes again) a written article, in the caller's transaction: renders it (canonical URL = its live
 * address when known), keeps the rendered HTML and JSON-LD on the article, marks it published (the publish date is
 * set once), and records one delivery with its job per target. A delivery of the article still waiting to be sent to a
 * destination is superseded by the new one, so an older version can never arrive after a newer one.
 */
export async function publishArticle(db: Kysely<Database>, clock: Clock, workspaceId: string, articleId: string): Promise<PublishSummary> {
  const { article, deliveries } = await planPublish(db, workspaceId, articleId);
  const now = clock.now();
  const publishedAt = article.published_at ?? now;
  const rendered = await storeRendered(db, clock, workspaceId, article, now, { status: 'published', published_at: publishedAt });
  const recorded: PublishSummary['deliveries'] = [];
  for (const { destination, event } of deliveries) {
    await cancelPendingDeliveries(db, clock, { destinationId: destination.id, articleId: article.id }, 'superseded by a later publish of the article');
    const { deliveryId, jobId } = await recordDelivery(db, clock, {
      workspaceId,
      destinationId: destination.id,
      articleId: article.id,
      event,
      article: deliveredArticle(destination, publishedArticle(article, rendered, destination.publish_as, publishedAt)),
      maxAttempts: ARTICLE_DELIVERY_ATTEMPTS,
    });
    recorded.push({ deliveryId, jobId, destinationId: destination.id, destinationName: destination.name, role: destinationRole(destination), event });
  }
  return { contentId: article.id, status: 'published', publishedAt: toIso(publishedAt)!, firstPublish: article.published_at === null, deliveries: recorded };
}
