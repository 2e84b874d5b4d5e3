import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { ClaimedJob, JobHandler } from '../jobs/worker.js';
import { fromJson, toJson } from '../shared/json.js';
import { modelText, modelTextList } from '../writer/answerFields.js';
import { brandMemoryPrompt, languageName } from '../brand/brandMemory.js';
import { requireWriter } from '../writer/required.js';
import { loadBrandRow } from '../brand/readBrand.js';
import type { Author } from '../brand/records.js';
import type { ArticleRow } from './articles.js';
import { readArticlePolicy, type ArticlePolicy } from './policy.js';

export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 155;

const faqItem = z.object({
  question: modelText(300, 'A question readers ask about the topic'),
  answer: modelText(1500, 'A direct, self-contained answer'),
});

const articleAnswer = z.object({
  metaTitle: modelText(META_TITLE_MAX, 'Title for search results and the page head'),
  metaDescription: modelText(META_DESCRIPTION_MAX, 'Description for search results'),
  // Checked by a refinement, not .min(): strict structured output refuses minLength (see modelText).
  markdown: z
    .string()
    .trim()
    .refine((value) => value.length > 0, 'must not be empty')
    .describe('The article body in Markdown: no H1; opens with a direct answer; ## and ### sections'),
  faq: z.array(faqItem).max(8).describe('Frequently asked questions with answers, 4 to 6'),
  keywords: modelTextList(10, 100, 'Search phrases the article targets, the primary keyword first'),
});

/** Words of a Markdown text, link targets and markup left out. */
export function countWords(markdown: string): number {
  const text = markdown.replace(/\]\([^)]*\)/g, ']').replace(/<[^>]+>/g, ' ');
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}

/** Models often repeat the title as an H1 although told not to; the title is the page's H1, so a leading one goes. */
function withoutLeadingH1(markdown: string): string {
  return markdown.replace(/^#\s[^\n]*\n+/, '').trim();
}

/** The policy's author when the brand still has one of that name, else the brand's first author, else none. */
function chooseAuthor(authors: Author[], policy: ArticlePolicy): Author | null {
  return authors.find((a) => a.name === policy.authorName) ?? authors[0] ?? null;
}

function taskPrompt(policy: ArticlePolicy, contentType: string, locale: string): string {
  return [
    '# Task',
    `You write one ${contentType.replace(/_/g, ' ')} for the brand's site, in ${languageName(locale)} (${locale}).`,
    `- About ${policy.targetWordCount} words in the body.`,
    '- Start with a direct answer to the title in the first two or three sentences, before any heading.',
    '- Then ## sections (### inside them where useful). No # heading: the title is the page heading.',
    '- Be specific: facts, numbers, examples and named sources where they are known; never invent statistics or quotes.',
    "- Mention the brand's products only where they help the reader, and only as the brand memory describes them.",
    `- metaTitle at most ${META_TITLE_MAX} characters; metaDescription at most ${META_DESCRIPTION_MAX} characters.`,
    policy.includeFaq ? '- faq: 4 to 6 questions readers ask, each with a direct, self-contained answer; not repeated from the body.' : '',
    '- keywords: 5 to 8 search phrases, the primary keyword first.',
  ]
    .filter(Boolean)
    .join('\n');
}

async function loadArticle(db: Kysely<Database>, job: ClaimedJob): Promise<ArticleRow | undefined> {
  return db.selectFrom('articles').selectAll().where('workspace_id', '=', job.workspaceId).where('id', '=', job.subjectId ?? '').executeTakeFirst();
}

/**
 * Writes a planned article's body with the writer model: brand memory and the article policy steer it, the title
 * and slot stay. Success makes it a draft; a failure leaves it planned with the reason (onFailed), to be generated again.
 */
export const writeArticleJob: JobHandler = {
  async run(job, deps) {
    const { db, clock } = deps;
    const article = await loadArticle(db, job);
    // Archived or removed while queued, or taken over by another request: nothing to write.
    if (article === undefined || article.status !== 'planned' || article.writing_job_id !== job.id) {
      return { written: false, reason: article === undefined ? 'the article no longer exists' : `the article is ${article.status} and not waiting for this write` };
    }
    const writer = requireWriter(deps.services.writer);
    await deps.progress('Reading brand memory and the article policy');
    const [policy, brand, memory] = await Promise.all([readArticlePolicy(db, job.workspaceId), loadBrandRow(db, job.workspaceId), brandMemoryPrompt(db, job.workspaceId)]);
    const locale = brand.default_locale;
    const schema = policy.includeFaq ? articleAnswer : articleAnswer.extend({ faq: z.array(faqItem).max(0).describe('Leave empty') });
    const author = chooseAuthor(fromJson<Author[]>(brand.authors), policy);

    await deps.progress(`Writing "${article.title}" with ${writer.model}`);
    const answer = await writer.structured(
      {
        system: `${memory}\n\n${taskPrompt(policy, article.content_type, locale)}`,
        user: [
          `Title: ${article.title}`,
          `Primary keyword: ${article.keyword}`,
          author === null ? '' : `Author: ${author.name}${author.bio ? ` (${author.bio})` : ''}; write as this author would.`,
        ]
          .filter(Boolean)
          .join('\n'),
        schemaName: 'article',
        schema,
      },
      { workspaceId: job.workspaceId, purpose: 'article', meter: deps.usage },
    );

    await deps.progress('Saving the draft');
    const markdown = withoutLeadingH1(answer.markdown);
    const wordCount = countWords(markdown);
    const now = clock.now();
    const saved = await db.transaction().execute((trx) =>
      trx
        .updateTable('articles')
        .set({
          markdown,
          faq: toJson(policy.includeFaq ? answer.faq : []),
          keywords: toJson(answer.keywords),
          meta_title: answer.metaTitle,
          meta_description: answer.metaDescription,
          word_count: wordCount,
          author: author === null ? null : toJson(author),
          language: locale,
          category_name: policy.categoryName,
          status: 'draft',
          written_at: now,
          writing_job_id: null,
          last_write_error: null,
          updated_at: now,
        })
        .where('workspace_id', '=', job.workspaceId)
        .where('id', '=', article.id)
        .where('status', '=', 'planned')
        .where('writing_job_id', '=', job.id)
        .executeTakeFirst(),
    );
    if (saved.numUpdatedRows !== 1n) return { written: false, reason: 'the article changed while it was being written' };
    return { written: true, articleId: article.id, status: 'draft', wordCount };
  },

  async onFailed(job, reason, { db, clock }) {
    // A failed write wrote nothing, so it no longer counts against the five writes a day.
    await db
      .updateTable('articles')
      .set({ writing_job_id: null, write_requested_at: null, last_write_error: reason, updated_at: clock.now() })
      .where('workspace_id', '=', job.workspaceId)
      .where('id', '=', job.subjectId ?? '')
      .where('writing_job_id', '=', job.id)
      .execute();
  },
};
