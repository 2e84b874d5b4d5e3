import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import type { Writer } from '../writer/model.js';

const TITLE_RULES = [
  '# Task: article titles',
  'You plan articles for the brand above. A good title answers a question its buyers ask, names the subject plainly and promises something specific.',
  'Titles are at most 90 characters, in the brand\'s language, without quotes, clickbait or the brand name unless the subject is the brand itself.',
].join('\n');

const ideaTitle = z.object({ title: z.string().min(5).max(200) });

/** One title for an article that answers a tracked query. */
export async function writeIdeaTitle(writer: Writer, db: Kysely<Database>, workspaceId: string, queryText: string): Promise<string> {
  const answer = await writer.structured(
    {
      system: `${await brandMemoryPrompt(db, workspaceId)}\n\n${TITLE_RULES}`,
      user: `Write the title of one article that answers this search query: "${queryText}". Answer with { "title": ... }.`,
      schemaName: 'idea_title',
      schema: ideaTitle,
    },
    { workspaceId, purpose: 'idea_title' },
  );
  return answer.title.trim();
}

export interface TitleRequest {
  count: number;
  topic?: string;
  keywords?: string[];
}

export interface TitleCandidate {
  title: string;
  keyword: string;
}

const candidateList = (count: number) =>
  z.object({
    titles: z
      .array(z.object({ title: z.string().min(5).max(200), keyword: z.string().min(2).max(200) }))
      .min(1)
      .max(count),
  });

/** Candidate titles, each with the search query it targets; `avoid` are titles already in the calendar. */
export async function writeCandidateTitles(
  writer: Writer,
  db: Kysely<Database>,
  workspaceId: string,
  request: TitleRequest,
  avoid: readonly string[],
): Promise<TitleCandidate[]> {
  const task = [
    `Propose ${request.count} different article titles. For each, give the search query (keyword) a buyer would type that the article should rank and be cited for: short, lower-case.`,
    ...(request.topic ? [`Topic: ${request.topic}`] : []),
    ...(request.keywords?.length ? [`Work from these keywords: ${request.keywords.join('; ')}`] : []),
    ...(avoid.length > 0 ? ['Do not repeat or closely rephrase these titles already planned or published:', ...avoid.map((title) => `- ${title}`)] : []),
    'Answer with { "titles": [{ "title": ..., "keyword": ... }] }.',
  ].join('\n');
  const answer = await writer.structured(
    {
      system: `${await brandMemoryPrompt(db, workspaceId)}\n\n${TITLE_RULES}`,
      user: task,
      schemaName: 'title_candidates',
      schema: candidateList(request.count),
    },
    { workspaceId, purpose: 'plan_titles' },
  );
  return answer.titles.map((candidate) => ({ title: candidate.title.trim(), keyword: candidate.keyword.trim() }));
}
