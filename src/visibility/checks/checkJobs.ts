import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import type { ClaimedJob, JobDeps, JobHandler } from '../../jobs/worker.js';
import type { WriterCall } from '../../writer/model.js';
import { ENGINE_NAMES, EngineError, type EngineAnswer, type EngineName } from '../engines/engine.js';
import { answerOfPage } from '../engines/serpEngines.js';
import type { SerpPage } from '../serp/serp.js';
import { classifyAnswer } from './classify.js';
import { recordEngineAnswer, recordRankCheck, type CheckFailure, type Sentiment } from './record.js';
import { SEARCH_ENGINES } from './runs.js';
import { rateSentiment } from './sentiment.js';
import { loadSubjects, type WorkspaceSubjects } from './subjects.js';

const enginePayload = z.object({
  runId: z.string(),
  queryId: z.string(),
  engine: z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]]),
  runIndex: z.number().int(),
});
const rankPayload = z.object({
  runId: z.string(),
  queryId: z.string(),
  // Jobs queued before answers were read from rank pages carry none.
  answers: z.array(z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]])).default([]),
});

/** The engine whose answer each search page carries. */
const PAGE_ENGINE: Record<(typeof SEARCH_ENGINES)[number], EngineName> = { google: 'google_ai_overview', bing: 'copilot' };

function failure(error: unknown): CheckFailure {
  if (error instanceof EngineError) return { errorClass: error.errorClass, message: error.message };
  return { errorClass: 'provider_error', message: error instanceof Error ? error.message : String(error) };
}

async function queryText(db: Kysely<Database>, workspaceId: string, queryId: string): Promise<string> {
  const row = await db.selectFrom('queries').select('text').where('workspace_id', '=', workspaceId).where('id', '=', queryId).executeTakeFirstOrThrow();
  return row.text;
}

/**
 * The sentiment pass: the writer model reads the passage around each subject's first mention. Without a writer
 * there is no sentiment (the answers are still classified); a failed reading leaves that subject without one.
 */
async function sentiments(workspaceId: string, answer: EngineAnswer, subjects: WorkspaceSubjects, deps: JobDeps): Promise<Map<string, Sentiment>> {
  const readings = new Map<string, Sentiment>();
  const writer = deps.services.writer;
  if (writer === undefined || answer.notShown) return readings;
  const names = new Map(subjects.subjects.map((s) => [s.id, s.name]));
  const call: WriterCall = { workspaceId, purpose: 'sentiment', meter: deps.usage };
  for (const result of classifyAnswer(answer, subjects.subjects)) {
    if (result.passage === null) continue;
    try {
      readings.set(result.subjectId, await rateSentiment(writer, names.get(result.subjectId)!, result.passage, call));
    } catch (error) {
      deps.logger.warn({ err: error, subjectId: result.subjectId }, 'sentiment reading failed; the mention is kept without one');
    }
  }
  return readings;
}

async function alreadyAnswered(db: Kysely<Database>, job: ClaimedJob, payload: z.infer<typeof enginePayload>): Promise<boolean> {
  const row = await db
    .selectFrom('engine_answers')
    .select('id')
    .where('workspace_id', '=', job.workspaceId)
    .where('run_id', '=', payload.runId)
    .where('query_id', '=', payload.queryId)
    .where('engine', '=', payload.engine)
    .where('run_index', '=', payload.runIndex)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One question to one engine: ask it in the brand's locale, read the sentiment around each mention, record the
 * classified answer. An engine error (timeout, rate limit, refusal, provider error) is recorded as a failed check
 * with its class; the adapter has already retried what was worth retrying, so the job does not ask again.
 */
export const engineCheckJob: JobHandler = {
  async run(job, deps) {
    const payload = enginePayload.parse(job.payload);
    if (await alreadyAnswered(deps.db, job, payload)) return { recorded: false, reason: 'this check was recorded by an earlier attempt' };
    const [text, subjects] = await Promise.all([queryText(deps.db, job.workspaceId, payload.queryId), loadSubjects(deps.db, job.workspaceId)]);
    const engine = deps.services.engines[payload.engine];
    let answer: EngineAnswer | null = null;
    let error: CheckFailure | null = null;
    if (engine === undefined) {
      error = { errorClass: 'not_configured', message: `${payload.engine} is no longer configured` };
    } else {
      await deps.progress(`Asking ${payload.engine}: "${text}"`);
      try {
        answer = await engine.ask(text, { locale: subjects.locale });
      } catch (caught) {
        error = failure(caught);
      }
    }
    let readings: Map<string, Sentiment> | undefined;
    if (answer !== null) {
      await deps.progress(`Reading the sentiment of ${payload.engine}'s answer`);
      readings = await sentiments(job.workspaceId, answer, subjects, deps);
    }
    const recorded = await recordEngineAnswer(deps.db, deps.clock, { ...payload, workspaceId: job.workspaceId, answer, error, ...(readings ? { sentiments: readings } : {}) });
    return { answerId: recorded.answerId, engine: payload.engine, result: recorded.brandResult, errorClass: error?.errorClass ?? null };
  },

  async onFailed(job, reason, { db, clock }) {
    // The check still counts on its run, as failed: a run always finishes, and missing data never reads as `none`.
    const payload = enginePayload.parse(job.payload);
    await recordEngineAnswer(db, clock, { ...payload, workspaceId: job.workspaceId, answer: null, error: { errorClass: 'provider_error', message: reason } });
  },
};

/**
 * A query's Google and Bing rank checks through the SERP provider, and the first run of the engines read from those
 * pages (Google's AI overview, Copilot on Bing): one paid call per page, the rank check and the answer recorded
 * together in one transaction, the answer pointing at the rank check. One page failing leaves the other.
 */
export const rankCheckJob: JobHandler = {
  async run(job, deps) {
    const payload = rankPayload.parse(job.payload);
    const [text, subjects] = await Promise.all([queryText(deps.db, job.workspaceId, payload.queryId), loadSubjects(deps.db, job.workspaceId)]);
    const serp = deps.services.serp;
    const options = { locale: subjects.locale };
    const positions: Record<string, number | null> = {};
    for (const searchEngine of SEARCH_ENGINES) {
      const engine = payload.answers.includes(PAGE_ENGINE[searchEngine]) ? PAGE_ENGINE[searchEngine] : undefined;
      const done = await deps.db
        .selectFrom('rank_checks')
        .select('position')
        .where('workspace_id', '=', job.workspaceId)
        .where('run_id', '=', payload.runId)
        .where('query_id', '=', payload.queryId)
        .where('search_engine', '=', searchEngine)
        .executeTakeFirst();
      if (done !== undefined) {
        positions[searchEngine] = done.position;
        continue;
      }
      let page: SerpPage | undefined;
      let error: CheckFailure | null = null;
      if (serp === undefined) {
        error = { errorClass: 'not_configured', message: 'the SERP provider is no longer configured' };
      } else {
        await deps.progress(`Checking ${searchEngine} ranks for "${text}"`);
        try {
          page = await serp[searchEngine](text, options);
        } catch (caught) {
          error = failure(caught);
        }
      }
      const answer = page === undefined ? null : answerOfPage(page);
      const readings = answer !== null && engine !== undefined ? await sentiments(job.workspaceId, answer, subjects, deps) : undefined;
      positions[searchEngine] = await deps.db.transaction().execute(async (trx) => {
        const recorded = await recordRankCheck(trx, deps.clock, {
          runId: payload.runId,
          queryId: payload.queryId,
          workspaceId: job.workspaceId,
          searchEngine,
          organic: page?.organic ?? null,
          aiOverview: searchEngine === 'google' ? (page?.aiOverview ?? null) : null,
          error,
        });
        if (engine !== undefined) {
          const base = { runId: payload.runId, queryId: payload.queryId, workspaceId: job.workspaceId, engine, runIndex: 1, rankCheckId: recorded.rankCheckId };
          await recordEngineAnswer(trx, deps.clock, { ...base, answer, error, ...(readings ? { sentiments: readings } : {}) });
        }
        return recorded.position;
      });
    }
    return { queryId: payload.queryId, positions };
  },

  async onFailed(job, reason, { db, clock }) {
    const { runId, queryId, answers } = rankPayload.parse(job.payload);
    const error = { errorClass: 'provider_error', message: reason };
    for (const searchEngine of SEARCH_ENGINES) {
      await db.transaction().execute(async (trx) => {
        const { rankCheckId } = await recordRankCheck(trx, clock, { runId, queryId, workspaceId: job.workspaceId, searchEngine, organic: null, error });
        const engine = PAGE_ENGINE[searchEngine];
        if (answers.includes(engine)) {
          await recordEngineAnswer(trx, clock, { runId, queryId, workspaceId: job.workspaceId, engine, runIndex: 1, rankCheckId, answer: null, error });
        }
      });
    }
  },
};
