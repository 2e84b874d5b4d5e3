import type { Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { ENGINE_NAMES } from '../engines/engine.js';

export interface EngineCheck {
  /** The brand in the latest check; with several runs per query, the best of them (cited, then mentioned, none, not_shown); failed only when every run failed. */
  result: MentionResult;
  checkedAt: number;
}

/** query_latest.engine_checks: per engine, its latest check run, the brand's best result in it, and its latest answer's time. */
type StoredChecks = Partial<Record<EngineName, { run: string; result: MentionResult; at: number }>>;

/** The latest check of each engine, from a query_latest row's engine_checks. */
export function engineChecksOf(stored: string): (engine: EngineName) => EngineCheck | undefined {
  const checks = JSON.parse(stored) as StoredChecks;
  return (engine) => {
    const check = checks[engine];
    return check === undefined ? undefined : { result: check.result, checkedAt: check.at };
  };
}

const STRENGTH: Record<MentionResult, number> = { failed: 0, not_shown: 1, none: 2, mentioned: 3, cited: 4 };

/** A newly stored answer, with the results of every answer of its cell (its query on its engine in its run), its own included. */
export interface AnsweredCell {
  workspaceId: string;
  queryId: string;
  engine: EngineName;
  runId: string;
  checkedAt: number;
  cellResults: readonly MentionResult[];
}

/**
 * Keeps the query's engine_checks and masks exact as answers arrive (inside the recording transaction, which holds
 * the workspace's lock, after the answer is stored): the newest answer names the latest run, and the result is the
 * best of that run's answers.
 */
export async function noteEngineCheck(trx: Kysely<Database>, answer: AnsweredCell): Promise<void> {
  const row = await trx
    .selectFrom('query_latest')
    .select('engine_checks')
    .where('workspace_id', '=', answer.workspaceId)
    .where('query_id', '=', answer.queryId)
    .executeTakeFirstOrThrow();
  const checks = JSON.parse(row.engine_checks) as StoredChecks;
  const known = checks[answer.engine];
  if (known !== undefined && answer.checkedAt < known.at) return;
  checks[answer.engine] = { run: answer.runId, result: answer.cellResults.reduce((best, next) => (STRENGTH[next] > STRENGTH[best] ? next : best)), at: answer.checkedAt };
  const latest = Object.entries(checks).map(([engine, check]) => ({ engine: engine as EngineName, result: check.result }));
  await trx
    .updateTable('query_latest')
    .set({
      engine_checks: JSON.stringify(checks),
      named: engineMask(latest.filter((check) => NAMED.includes(check.result))),
      answered: engineMask(latest.filter((check) => ANSWERED.includes(check.result))),
    })
    .where('workspace_id', '=', answer.workspaceId)
    .where('query_id', '=', answer.queryId)
    .execute();
}

/**
 * A tracked query's ties to its wording, written when the query is added and when it is reworded: its query_latest
 * row (made when it is added) carries the wording's key and that wording's Search Console impressions of the current
 * period (the order of the rankings), and the Search Console sums of the wording name the query.
 */
export async function noteQueryWording(db: Kysely<Database>, query: { workspace_id: string; id: string; text_key: string; created_at: number }): Promise<void> {
  const { workspace_id: workspaceId, id: queryId, text_key: textKey } = query;
  const wording = {
    text_key: textKey,
    impressions: db
      .selectFrom('search_console_queries')
      .select((eb) => eb.fn.coalesce(eb.fn.max('impressions'), eb.lit(0)).as('impressions'))
      .where('workspace_id', '=', workspaceId)
      .where('period', '=', 'current')
      .where('query', '=', textKey),
  };
  await db
    .insertInto('query_latest')
    .values({ workspace_id: workspaceId, query_id: queryId, added_at: query.created_at, ...wording })
    .onConflict((oc) => oc.columns(['workspace_id', 'query_id']).doUpdateSet(wording))
    .execute();
  await db.updateTable('search_console_queries').set({ query_id: null }).where('workspace_id', '=', workspaceId).where('query_id', '=', queryId).execute();
  await db.updateTable('search_console_queries').set({ query_id: queryId }).where('workspace_id', '=', workspaceId).where('query', '=', textKey).execute();
}

/**
 * After a Search Console sync stored its sums, or forgot them: each sum names its tracked query, and every tracked
 * query's impressions are those stored now (0 once the data is forgotten).
 */
export async function linkConsoleQueries(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db
    .updateTable('search_console_queries')
    .set((eb) => ({
      query_id: eb
        .selectFrom('queries as q')
        .select('q.id')
        .whereRef('q.workspace_id', '=', 'search_console_queries.workspace_id')
        .whereRef('q.text_key', '=', 'search_console_queries.query'),
    }))
    .where('workspace_id', '=', workspaceId)
    .execute();
  await db
    .updateTable('query_latest')
    .set((eb) => ({
      impressions: eb.fn.coalesce(
        eb
          .selectFrom('search_console_queries as c')
          .select('c.impressions')
          .whereRef('c.workspace_id', '=', 'query_latest.workspace_id')
          .where('c.period', '=', 'current')
          .whereRef('c.query', '=', 'query_latest.text_key'),
        eb.lit(0),
      ),
    }))
    .where('workspace_id', '=', workspaceId)
    .execute();
}

const NAMED: readonly MentionResult[] = ['cited', 'mentioned'];
/** Results of an answer that was read: the engine answered (or its search page showed no answer), whatever it said of the brand. */
const ANSWERED: readonly MentionResult[] = ['cited', 'mentioned', 'none', 'not_shown'];

/** Bit i for ENGINE_NAMES[i]: the engines of query_latest's masks. */
export function engineMask(engines: ReadonlyArray<{ engine: EngineName }>): number {
  return engines.reduce((mask, { engine }) => mask | (1 << ENGINE_NAMES.indexOf(engine)), 0);
}
