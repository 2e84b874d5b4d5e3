import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { UsageMeter, Writer } from '../writer/model.js';
import { brandMemoryPrompt } from '../brand/brandMemory.js';
import type { FoundThread } from './sources/source.js';

export interface SearchTerm {
  text: string;
  kind: 'query' | 'brand' | 'competitor';
}

export interface Judgement {
  relevance: number;
  reason: string;
  scoredBy: 'writer' | 'terms';
}

/** Threads judged per writer call: enough to keep the calls few, few enough that each gets its own attention. */
const THREADS_PER_CALL = 20;
const EXCERPT_IN_PROMPT = 500;
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'how', 'what', 'which', 'best', 'are', 'you', 'your', 'from', 'that', 'this', 'can', 'does', 'why', 'who', 'when']);

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2 && !STOP_WORDS.has(word));

/**
 * Relevance without a writer model: the whole term in the title counts most, then the share of its words found in the
 * title and text. It cannot tell a question from a news item, which is why the writer judges when configured.
 */
export function termJudgement(thread: Pick<FoundThread, 'title' | 'excerpt'>, term: SearchTerm): Judgement {
  const title = thread.title.toLowerCase();
  const text = `${title} ${thread.excerpt.toLowerCase()}`;
  if (title.includes(term.text.toLowerCase())) return { relevance: 80, reason: `"${term.text}" is in the title`, scoredBy: 'terms' };
  const wanted = [...new Set(words(term.text))];
  if (wanted.length === 0) return { relevance: 0, reason: `"${term.text}" has no word to look for`, scoredBy: 'terms' };
  const inTitle = wanted.filter((word) => title.includes(word));
  const inText = wanted.filter((word) => text.includes(word));
  const relevance = Math.round((inText.length / wanted.length) * (inTitle.length > 0 ? 70 : 50));
  return { relevance, reason: `${inText.length} of ${wanted.length} words of "${term.text}" appear in the ${inTitle.length > 0 ? 'title' : 'text'}`, scoredBy: 'terms' };
}

const judgementsAnswer = z.object({
  threads: z.array(
    z.object({
      index: z.int().describe('The number of the thread in the list.'),
      relevance: z.int().min(0).max(100),
      reason: z.string().max(300).describe('One sentence: why a reply from the brand would or would not help there.'),
    }),
  ),
});

const JUDGE_TASK = [
  '# Task',
  'You judge public threads (Hacker News, Stack Exchange, Bluesky, Reddit) for a person who may reply there for the brand above.',
  'For each thread give a relevance from 0 to 100:',
  '- 80 to 100: someone asks something the brand knows well, and an honest, helpful reply would answer it;',
  '- 40 to 79: the topic is the brand\'s, but the thread is not asking for what the brand can add (news, a show-and-tell, a debate);',
  '- 0 to 39: it only shares words with the search (another meaning of a word, unrelated field, spam).',
  'Judge the thread, not the brand: a reply must help the people in the thread first.',
  'Answer for every thread, by its number, with one sentence of reason.',
].join('\n');

/**
 * The writer model's judgement of each thread, in batches; a thread the model left out, or a batch whose call failed,
 * is judged by its words instead (recorded as `terms`).
 */
export async function judgeThreads(
  db: Kysely<Database>,
  writer: Writer | undefined,
  workspaceId: string,
  threads: ReadonlyArray<{ thread: FoundThread; term: SearchTerm }>,
  meter: UsageMeter,
  onWriterFailure: (error: unknown) => void,
): Promise<Judgement[]> {
  const judged = threads.map(({ thread, term }) => termJudgement(thread, term));
  if (writer === undefined || threads.length === 0) return judged;
  const memory = await brandMemoryPrompt(db, workspaceId);
  for (let start = 0; start < threads.length; start += THREADS_PER_CALL) {
    const batch = threads.slice(start, start + THREADS_PER_CALL);
    const listing = batch
      .map(({ thread, term }, i) => [`## Thread ${i + 1}`, `Where: ${thread.community}`, `Found by searching: "${term.text}" (${term.kind})`, `Title: ${thread.title}`, `Text: ${thread.excerpt.slice(0, EXCERPT_IN_PROMPT)}`].join('\n'))
      .join('\n\n');
    try {
      const answer = await writer.structured(
        { system: `${memory}\n\n${JUDGE_TASK}`, user: listing, schemaName: 'social_relevance', schema: judgementsAnswer, temperature: 0 },
        { workspaceId, purpose: 'social_relevance', meter },
      );
      for (const item of answer.threads) {
        const at = start + item.index - 1;
        if (item.index >= 1 && item.index <= batch.length) judged[at] = { relevance: item.relevance, reason: item.reason.trim(), scoredBy: 'writer' };
      }
    } catch (error) {
      onWriterFailure(error);
    }
  }
  return judged;
}
