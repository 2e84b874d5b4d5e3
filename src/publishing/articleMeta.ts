import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { OutboundError, type SafeFetcher } from '../outbound/safeFetch.js';
import { findArticle, type ArticleRow } from '../content/articles.js';
import { publishArticle, publishTargets, requireWritten, type PublishSummary } from './publish.js';

export const MAX_TITLE_CHARS = 200;
export const MAX_META_TITLE_CHARS = 60;
export const MAX_META_DESCRIPTION_CHARS = 155;
export const MAX_IMAGE_URL_CHARS = 2048;
export const MAX_IMAGE_ALT_CHARS = 250;

export interface MetaChange {
  contentId: string;
  title?: string | undefined;
  metaTitle?: string | undefined;
  metaDescription?: string | undefined;
  /** An empty string takes the image (and its alt text) away. */
  featuredImageUrl?: string | undefined;
  /** An empty string: the title is the alt text. */
  featuredImageAlt?: string | undefined;
}

/** The change as stored: an empty image address or alt text is no value (null). */
type StoredChange = Omit<MetaChange, 'featuredImageUrl' | 'featuredImageAlt'> & {
  featuredImageUrl?: string | null | undefined;
  featuredImageAlt?: string | null | undefined;
};

function storedChange(input: MetaChange): StoredChange {
  const orNull = (value: string | undefined) => (value === '' ? null : value);
  return { ...input, featuredImageUrl: orNull(input.featuredImageUrl), featuredImageAlt: orNull(input.featuredImageAlt) };
}

const FIELDS = [
  ['title', 'title'],
  ['metaTitle', 'meta_title'],
  ['metaDescription', 'meta_description'],
  ['featuredImageUrl', 'featured_image_url'],
  ['featuredImageAlt', 'featured_image_alt'],
] as const;

type Field = (typeof FIELDS)[number][0];

interface PlannedChange {
  input: StoredChange;
  article: ArticleRow;
  /** The sent fields whose value differs from the stored one. */
  changed: Field[];
  /** The article is published, something changed, and there is somewhere to send it. */
  republish: boolean;
}

/**
 * The image is fetched later by each CMS and by the site's receiver: an address no one could fetch (a private one,
 * credentials in it) is refused now rather than at every delivery.
 */
function checkImageUrl(outbound: Pick<SafeFetcher, 'check'>, url: string | null | undefined): void {
  if (url === null || url === undefined) return;
  try {
    outbound.check(new URL(url));
  } catch (error) {
    if (error instanceof OutboundError) throw BadInputError.field('featuredImageUrl', `cannot be fetched: ${error.message}`);
    throw error;
  }
}

async function planChange(db: Kysely<Database>, outbound: Pick<SafeFetcher, 'check'>, workspaceId: string, sent: MetaChange): Promise<PlannedChange> {
  const input = storedChange(sent);
  if (FIELDS.every(([field]) => input[field] === undefined)) {
    throw BadInputError.field('body', `send at least one of ${FIELDS.map(([field]) => field).join(', ')}`);
  }
  checkImageUrl(outbound, input.featuredImageUrl);
  const article = await findArticle(db, workspaceId, input.contentId);
  requireWritten(article);
  if (input.featuredImageAlt !== undefined && input.featuredImageAlt !== null && (input.featuredImageUrl ?? article.featured_image_url) === null) {
    throw BadInputError.field('featuredImageAlt', 'needs a featured image: send featuredImageUrl with it');
  }
  const changed = FIELDS.filter(([field, column]) => input[field] !== undefined && input[field] !== article[column]).map(([field]) => field);
  const republish = article.status === 'published' && changed.length > 0 && (await publishTargets(db, workspaceId)).length > 0;
  return { input, article, changed, republish };
}

export async function describeMetaChange(db: Kysely<Database>, outbound: Pick<SafeFetcher, 'check'>, workspaceId: string, sent: MetaChange): Promise<string> {
  const { input, article, changed, republish } = await planChange(db, outbound, workspaceId, sent);
  if (changed.length === 0) return `Nothing would change: "${article.title}" already has these values.`;
  const changes = changed.map((field) => (input[field] === null ? `${field} removed` : `${field} to "${input[field]}"`)).join(', ');
  const after = republish
    ? 'It is published, so it would be published again (article.updated to the destinations).'
    : article.status === 'published'
      ? 'It is published, but no destination is set up, so nothing would be sent.'
      : 'It is a draft, so nothing is sent until it is published.';
  return `Would change ${changes} of "${article.title}"; its slug "${article.slug}" and URL stay. ${after} Repeat with confirm: true to save.`;
}

export async function updateArticleMeta(db: Kysely<Database>, clock: Clock, outbound: Pick<SafeFetcher, 'check'>, workspaceId: string, sent: MetaChange) {
  const { input, article, changed, republish } = await planChange(db, outbound, workspaceId, sent);
  if (changed.length > 0) {
    // Kysely leaves out the columns given undefined: only the changed ones are written.
    const changedValue = <F extends Field>(field: F): StoredChange[F] => (changed.includes(field) ? input[field] : undefined);
    await db
      .updateTable('articles')
      .set({
        title: changedValue('title'),
        meta_title: changedValue('metaTitle'),
        meta_description: changedValue('metaDescription'),
        featured_image_url: changedValue('featuredImageUrl'),
        // An image taken away takes its alt text with it.
        featured_image_alt: input.featuredImageUrl === null ? null : changedValue('featuredImageAlt'),
        updated_at: clock.now(),
      })
      .where('id', '=', article.id)
      .execute();
  }
  const published: PublishSummary | null = republish ? await publishArticle(db, clock, workspaceId, article.id) : null;
  const saved = await findArticle(db, workspaceId, article.id);
  return {
    contentId: saved.id,
    title: saved.title,
    metaTitle: saved.meta_title,
    metaDescription: saved.meta_description,
    featuredImageUrl: saved.featured_image_url,
    featuredImageAlt: saved.featured_image_alt,
    slug: saved.slug,
    url: saved.url,
    changed,
    republished: published !== null,
    deliveries: published?.deliveries ?? [],
  };
}
