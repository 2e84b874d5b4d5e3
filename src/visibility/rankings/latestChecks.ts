import type { Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { runStarts } from './rankChecks.js';

export interface EngineCheck {
  /** The brand in the latest check; with several runs per query, the best of them (cited, then mentioned, none, not_shown); failed only when every run failed. */
  result: MentionResult;
  checkedAt: number;
}

const STRENGTH: Record<MentionResult, number> = { failed: 0, not_shown: 1, none: 2, mentioned: 3, cited: 4 };

const pairKey = (queryId: string, engine: EngineName) => `${engine}:${queryId}`;

interface AnswerRow {
  query_id: string;
  engine: EngineName;
  run_id: string;
  brand_result: MentionResult;
  checked_at: number;
}

/**
 * The latest check of each query on each engine: read from the answers since the latest check run started (a range
 * of the covering engine_answers_latest index), and only for the queries with a pair missing there (not asked or not
 * answered yet in that run) from their latest check whenever it was.
 */
export async function latestEngineChecks(
  db: Kysely<Database>,
  workspaceId: string,
  queryIds: readonly string[],
  engines: readonly EngineName[],
): Promise<(queryId: string, engine: EngineName) => EngineCheck | undefined> {
  const checks = new Map<string, EngineCheck & { runId: string }>();
  // Rows come newest first: the first row of a pair is its latest answer, and its run is the latest check.
  const take = (row: AnswerRow) => {
    const key = pairKey(row.query_id, row.engine);
    const known = checks.get(key);
    if (known === undefined) checks.set(key, { result: row.brand_result, checkedAt: Number(row.checked_at), runId: row.run_id });
    else if (known.runId === row.run_id && STRENGTH[row.brand_result] > STRENGTH[known.result]) known.result = row.brand_result;
  };
  const [latestRun] = await runStarts(db, workspaceId, 1);
  if (latestRun === undefined || engines.length === 0) return () => undefined;
  const answers = db.selectFrom('engine_answers').where('workspace_id', '=', workspaceId);
  (await answers.select(['query_id', 'engine', 'run_id', 'brand_result', 'checked_at']).where('checked_at', '>=', latestRun).orderBy('checked_at', 'desc').execute()).forEach(take);

  const missing = queryIds.filter((queryId) => engines.some((engine) => !checks.has(pairKey(queryId, engine))));
  if (missing.length > 0) {
    // Plain steps rather than joins or groupings, which the planners turn into scans of every answer: the time of each
    // pair's latest answer (a correlated max per engine: one probe of engine_answers_query each), the run of that
    // answer, then every answer of that run.
    const lasts = await db
      .selectFrom('queries as q')
      .select((eb) => [
        'q.id',
        ...engines.map((engine) =>
          eb
            .selectFrom('engine_answers as a')
            .select((e) => e.fn.max('a.checked_at').as('last'))
            .where('a.workspace_id', '=', workspaceId)
            .whereRef('a.query_id', '=', 'q.id')
            .where('a.engine', '=', engine)
            .as(engine),
        ),
      ])
      .where('q.workspace_id', '=', workspaceId)
      .where('q.id', 'in', missing)
      .execute();
    const times = lasts.flatMap((row) => engines.map((engine) => row[engine])).filter((time) => time != null).map(Number);
    if (times.length > 0) {
      const latestAnswers = await answers.select(['run_id']).where('checked_at', 'in', [...new Set(times)]).execute();
      (
        await answers
          .select(['query_id', 'engine', 'run_id', 'brand_result', 'checked_at'])
          .where('query_id', 'in', missing)
          .where('run_id', 'in', [...new Set(latestAnswers.map((row) => row.run_id))])
          .orderBy('checked_at', 'desc')
          .execute()
      ).forEach(take);
    }
  }
  return (queryId, engine) => checks.get(pairKey(queryId, engine));
}
