import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import type { JobDeps, JobHandler } from '../../jobs/worker.js';
import { fromJson, toJson } from '../../shared/json.js';
import { modelText } from '../../writer/answerFields.js';
import { languageName } from '../../brand/brandMemory.js';
import type { Writer } from '../../writer/model.js';
import { BRAND_SUBJECT } from '../checks/subjects.js';
import { metricWindow } from '../metrics/window.js';
import { MIN_SHARED_ANSWERS, POSITIONING_DAYS, type PositioningAnswer, type StoredPositioning } from './positioning.js';

// The prompt stays small whatever the workspace's volume: at most PROMPT_ANSWERS answers, each with the brand's and the
// competitor's passage cut to PASSAGE_CHARS (classification keeps 500 at most already): about 2,500 tokens in.
const PROMPT_ANSWERS = 8;
const PASSAGE_CHARS = 500;
const SUMMARY_CHARS = 700;

const positioningAnswer = z.object({
  summary: modelText(SUMMARY_CHARS, 'Two to four sentences: how the answers present the competitor next to the brand'),
});

const SYSTEM = [
  'You read passages from AI assistants\' answers that name two companies: the brand and one competitor.',
  'Summarise how the answers position the competitor next to the brand: what each is recommended for, how they are compared, which comes first or is preferred, and for whom.',
  'Use only what the passages say; never add facts, numbers or opinions of your own. Where the answers disagree, say so.',
].join('\n');

/**
 * Answers of the window in which both the brand and the competitor are named (each has a passage), newest first.
 * Read from the window's answers (engine_answers_page) with each one's two mentions by key, so the cost follows the
 * window, not the year of mentions a competitor gathers.
 */
async function sharedAnswers(db: Kysely<Database>, workspaceId: string, competitorId: string, from: number): Promise<PositioningAnswer[]> {
  const rows = await db
    .selectFrom('engine_answers as a')
    .innerJoin('answer_mentions as c', (join) => join.onRef('c.answer_id', '=', 'a.id').on('c.subject_id', '=', competitorId))
    .innerJoin('answer_mentions as b', (join) => join.onRef('b.answer_id', '=', 'a.id').on('b.subject_id', '=', BRAND_SUBJECT))
    .select(['a.id', 'a.engine', 'a.checked_at'])
    .where('a.workspace_id', '=', workspaceId)
    .where('a.checked_at', '>=', from)
    .where('c.passage', 'is not', null)
    .where('b.passage', 'is not', null)
    .orderBy('a.checked_at', 'desc')
    .execute();
  return rows.map((r) => ({ answerId: r.id, engine: r.engine, checkedAt: r.checked_at }));
}

/** The newest answers, taken in turn from each engine, so that one engine's answers do not stand for all. */
function sample(answers: readonly PositioningAnswer[]): PositioningAnswer[] {
  const byEngine = new Map<string, PositioningAnswer[]>();
  for (const answer of answers) {
    const list = byEngine.get(answer.engine);
    if (list === undefined) byEngine.set(answer.engine, [answer]);
    else list.push(answer);
  }
  const picked: PositioningAnswer[] = [];
  for (let round = 0; picked.length < Math.min(PROMPT_ANSWERS, answers.length); round++) {
    for (const list of byEngine.values()) if (list[round] !== undefined && picked.length < PROMPT_ANSWERS) picked.push(list[round]!);
  }
  return picked.sort((a, b) => b.checkedAt - a.checkedAt);
}

async function summarise(
  deps: JobDeps,
  writer: Writer,
  workspaceId: string,
  brand: { name: string; locale: string },
  competitor: { id: string; name: string },
  answers: PositioningAnswer[],
): Promise<string> {
  const rows = await deps.db
    .selectFrom('answer_mentions')
    .select(['answer_id', 'subject_id', 'passage'])
    .where('workspace_id', '=', workspaceId)
    .where('answer_id', 'in', answers.map((a) => a.answerId))
    .where('subject_id', 'in', [BRAND_SUBJECT, competitor.id])
    .execute();
  const passages = answers.map((answer, i) => {
    const own = rows.filter((r) => r.answer_id === answer.answerId).map((r) => (r.passage ?? '').slice(0, PASSAGE_CHARS));
    // Both are named in the same sentence more often than not: that passage is sent once.
    return `Answer ${i + 1} (${answer.engine}):\n${[...new Set(own)].join('\n')}`;
  });
  const answer = await writer.structured(
    {
      system: SYSTEM,
      user: [`Brand: ${brand.name}`, `Competitor: ${competitor.name}`, `Write in ${languageName(brand.locale)}.`, '', ...passages].join('\n'),
      schemaName: 'competitor_positioning',
      schema: positioningAnswer,
      temperature: 0,
    },
    { workspaceId, purpose: 'positioning', meter: deps.usage },
  );
  return answer.summary;
}

async function store(db: Kysely<Database>, workspaceId: string, competitorId: string, positioning: StoredPositioning): Promise<void> {
  await db.updateTable('competitors').set({ positioning: toJson(positioning) }).where('workspace_id', '=', workspaceId).where('id', '=', competitorId).execute();
}

/**
 * competitor_positioning: after a check run, each tracked competitor's positioning is made again from the answers of
 * the last 30 days that name both it and the brand. Fewer than MIN_SHARED_ANSWERS: the count is stored and the writer
 * is not asked. The same answers as the stored summary: nothing is asked either, so running the job again costs
 * nothing. A writer failure leaves that competitor's positioning as it was; the job then fails naming it.
 * Without a writer, nothing is recorded.
 */
export const positioningJob: JobHandler = {
  async run(job, deps) {
    const writer = deps.services.writer;
    if (writer === undefined) return { summarised: 0, reason: 'no writer model is configured' };
    const { db } = deps;
    const [brandRow, competitors] = await Promise.all([
      db.selectFrom('brands').select(['name', 'default_locale']).where('workspace_id', '=', job.workspaceId).executeTakeFirstOrThrow(),
      db.selectFrom('competitors').select(['id', 'name', 'positioning']).where('workspace_id', '=', job.workspaceId).where('removed_at', 'is', null).orderBy('created_at').orderBy('id').execute(),
    ]);
    const brand = { name: brandRow.name, locale: brandRow.default_locale };
    const now = deps.clock.now();
    const from = metricWindow(POSITIONING_DAYS, now).from;
    const outcome = { summarised: 0, unchanged: 0, notEnoughAnswers: 0, failed: [] as string[] };
    for (const competitor of competitors) {
      const shared = await sharedAnswers(db, job.workspaceId, competitor.id, from);
      if (shared.length < MIN_SHARED_ANSWERS) {
        await store(db, job.workspaceId, competitor.id, { status: 'not_enough_answers', sharedAnswers: shared.length, madeAt: now });
        outcome.notEnoughAnswers++;
        continue;
      }
      const answers = sample(shared);
      const previous = competitor.positioning === null ? null : fromJson<StoredPositioning>(competitor.positioning);
      if (previous?.status === 'summarised' && sameAnswers(previous.answers, answers)) {
        // Older answers may have left the window without being in the sample: only the count moves.
        if (previous.sharedAnswers !== shared.length) await store(db, job.workspaceId, competitor.id, { ...previous, sharedAnswers: shared.length });
        outcome.unchanged++;
        continue;
      }
      await deps.progress(`Summarising how answers position ${competitor.name}`);
      let summary: string;
      try {
        summary = await summarise(deps, writer, job.workspaceId, brand, competitor, answers);
      } catch (error) {
        deps.logger.warn({ err: error, competitorId: competitor.id }, 'positioning summary failed; the previous one is kept');
        outcome.failed.push(competitor.name);
        continue;
      }
      await store(db, job.workspaceId, competitor.id, {
        status: 'summarised',
        summary,
        answers,
        sampleSize: answers.length,
        sharedAnswers: shared.length,
        model: writer.model,
        madeAt: now,
      });
      outcome.summarised++;
    }
    if (outcome.failed.length > 0) throw new Error(`the writer model failed to summarise the positioning of ${outcome.failed.join(', ')}; the previous positioning is kept`);
    return outcome;
  },
};

function sameAnswers(a: readonly PositioningAnswer[], b: readonly PositioningAnswer[]): boolean {
  return a.length === b.length && a.every((answer, i) => answer.answerId === b[i]!.answerId);
}
