import type { Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { ENGINE_NAMES } from '../engines/engine.js';

export interface EngineCheck {
  /** The brand in the latest check; with several runs per query, the best of them (cited, then mentioned, none, not_shown); failed only when every run failed. */
  result: MentionResult;
  checkedAt: number;
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
 * Keeps engine_latest exact as answers arrive (inside the recording transaction, which holds the workspace's lock,
 * after the answer is stored): the newest answer names the latest run, and the result is the best of that run's answers.
 */
export async function noteEngineCheck(trx: Kysely<Database>, answer: AnsweredCell): Promise<void> {
  const known = await trx
    .selectFrom('engine_latest')
    .select(['run_id', 'checked_at'])
    .where('workspace_id', '=', answer.workspaceId)
    .where('query_id', '=', answer.queryId)
    .where('engine', '=', answer.engine)
    .executeTakeFirst();
  if (known !== undefined && answer.checkedAt < Number(known.checked_at)) return;
  const result = answer.cellResults.reduce((best, next) => (STRENGTH[next] > STRENGTH[best] ? next : best));
  await trx
    .insertInto('engine_latest')
    .values({ workspace_id: answer.workspaceId, query_id: answer.queryId, engine: answer.engine, run_id: answer.runId, result, checked_at: answer.checkedAt })
    .onConflict((oc) => oc.columns(['workspace_id', 'query_id', 'engine']).doUpdateSet({ run_id: answer.runId, result, checked_at: answer.checkedAt }))
    .execute();
  const latest = await trx.selectFrom('engine_latest').select(['engine', 'result']).where('workspace_id', '=', answer.workspaceId).where('query_id', '=', answer.queryId).execute();
  const masks = { named: engineMask(latest.filter((row) => NAMED.includes(row.result))), answered: engineMask(latest.filter((row) => ANSWERED.includes(row.result))) };
  await trx
    .insertInto('query_latest')
    .values({ workspace_id: answer.workspaceId, query_id: answer.queryId, ...masks })
    .onConflict((oc) => oc.columns(['workspace_id', 'query_id']).doUpdateSet(masks))
    .execute();
}

const NAMED: readonly MentionResult[] = ['cited', 'mentioned'];
/** Results of an answer that was read: the engine answered (or its search page showed no answer), whatever it said of the brand. */
const ANSWERED: readonly MentionResult[] = ['cited', 'mentioned', 'none', 'not_shown'];

/** Bit i for ENGINE_NAMES[i]: the engines of query_latest's masks. */
export function engineMask(engines: ReadonlyArray<{ engine: EngineName }>): number {
  return engines.reduce((mask, { engine }) => mask | (1 << ENGINE_NAMES.indexOf(engine)), 0);
}

/** The latest check of the given queries on each of `engines`: one row per query and engine, kept at write time. */
export async function latestEngineChecks(
  db: Kysely<Database>,
  workspaceId: string,
  engines: readonly EngineName[],
  queryIds: readonly string[],
): Promise<(queryId: string, engine: EngineName) => EngineCheck | undefined> {
  if (engines.length === 0 || queryIds.length === 0) return () => undefined;
  const rows = await db
    .selectFrom('engine_latest')
    .select(['query_id', 'engine', 'result', 'checked_at'])
    .where('workspace_id', '=', workspaceId)
    .where('query_id', 'in', queryIds)
    .where('engine', 'in', engines)
    .execute();
  const checks = new Map(rows.map((row) => [`${row.engine}:${row.query_id}`, { result: row.result, checkedAt: Number(row.checked_at) }]));
  return (queryId, engine) => checks.get(`${engine}:${queryId}`);
}
