import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { findArticle, type ArticleRow } from '../content/articles.js';
import { publishArticle, publishTargets, requireWritten, type PublishSummary } from './publish.js';

export const MAX_TITLE_CHARS = 200;
export const MAX_META_TITLE_CHARS = 60;
export const MAX_META_DESCRIPTION_CHARS = 155;

export interface MetaChange {
  contentId: string;
  title?: string | undefined;
  metaTitle?: string | undefined;
  metaDescription?: string | undefined;
}

const FIELDS = [
  ['title', 'title'],
  ['metaTitle', 'meta_title'],
  ['metaDescription', 'meta_description'],
] as const;

type Field = (typeof FIELDS)[number][0];

interface PlannedChange {
  article: ArticleRow;
  /** The sent fields whose value differs from the stored one. */
  changed: Field[];
  /** The article is published, something changed, and there is somewhere to send it. */
  republish: boolean;
}

async function planChange(db: Kysely<Database>, workspaceId: string, input: MetaChange): Promise<PlannedChange> {
  if (FIELDS.every(([field]) => input[field] === undefined)) {
    throw BadInputError.field('body', 'send at least one of title, metaTitle, metaDescription');
  }
  const article = await findArticle(db, workspaceId, input.contentId);
  requireWritten(article);
  const changed = FIELDS.filter(([field, column]) => input[field] !== undefined && input[field] !== article[column]).map(([field]) => field);
  const republish = article.status === 'published' && changed.length > 0 && (await publishTargets(db, workspaceId)).length > 0;
  return { article, changed, republish };
}

export async function describeMetaChange(db: Kysely<Database>, workspaceId: string, input: MetaChange): Promise<string> {
  const { article, changed, republish } = await planChange(db, workspaceId, input);
  if (changed.length === 0) return `Nothing would change: "${article.title}" already has these values.`;
  const changes = changed.map((field) => `${field} to "${input[field]}"`).join(', ');
  const after = republish
    ? 'It is published, so it would be published again (article.updated to the destinations).'
    : article.status === 'published'
      ? 'It is published, but no destination is set up, so nothing would be sent.'
      : 'It is a draft, so nothing is sent until it is published.';
  return `Would change ${changes} of "${article.title}"; its slug "${article.slug}" and URL stay. ${after} Repeat with confirm: true to save.`;
}

export async function updateArticleMeta(db: Kysely<Database>, clock: Clock, workspaceId: string, input: MetaChange) {
  const { article, changed, republish } = await planChange(db, workspaceId, input);
  if (changed.length > 0) {
    const values: { title?: string; meta_title?: string; meta_description?: string } = {};
    for (const [field, column] of FIELDS) if (changed.includes(field)) values[column] = input[field];
    await db.updateTable('articles').set({ ...values, updated_at: clock.now() }).where('id', '=', article.id).execute();
  }
  const published: PublishSummary | null = republish ? await publishArticle(db, clock, workspaceId, article.id) : null;
  const saved = await findArticle(db, workspaceId, article.id);
  return {
    contentId: saved.id,
    title: saved.title,
    metaTitle: saved.meta_title,
    metaDescription: saved.meta_description,
    slug: saved.slug,
    url: saved.url,
    changed,
    republished: published !== null,
    deliveries: published?.deliveries ?? [],
  };
}
