import { sql, type Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { BRAND_SUBJECT } from '../../visibility/checks/subjects.js';
import { ZERO, addCounts, type Counts, type Subjects } from '../../visibility/metrics/daily.js';

/** Results that are answers: failed checks and search pages that showed no AI answer are not (as in the metrics). */
export const ANSWERED: readonly MentionResult[] = ['cited', 'mentioned', 'none'];

/** One engine's answers of a run, counted as the metrics count them, over the cells both compared runs answered. */
export interface EngineCounts {
  brand: Counts;
  /** Answers naming each tracked competitor (cited or mentioned), by competitor id. */
  competitors: Map<string, number>;
}

/**
 * Whether every run named is the workspace's. The detectors then read a run's answers by run id alone, through the
 * (run, query, engine, result) index: with the workspace in the condition too, SQLite's planner walks the workspace's
 * whole history by its (workspace, engine, time) index instead.
 */
export async function runsOfWorkspace(db: Kysely<Database>, workspaceId: string, runIds: readonly string[]): Promise<boolean> {
  const rows = await db.selectFrom('check_runs').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', runIds).execute();
  return rows.length === new Set(runIds).size;
}

/**
 * The answers of `runId` per engine, restricted to the cells (query and engine) that `otherRunId` answered too: two runs
 * compare like with like even when one of them added or lost a query or an engine. Two grouped reads over the run's
 * answers (the other run's cell is found through the (run, query, engine, result) index), however many queries.
 */
export async function runCounts(db: Kysely<Database>, workspaceId: string, runId: string, otherRunId: string, subjects: Subjects): Promise<Map<EngineName, EngineCounts>> {
  if (!(await runsOfWorkspace(db, workspaceId, [runId, otherRunId]))) return new Map();
  const coveredAnswers = db
    .selectFrom('engine_answers as ea')
    .where('ea.run_id', '=', runId)
    .where('ea.brand_result', 'in', ANSWERED)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('engine_answers as other')
          .select('other.run_id')
          .where('other.run_id', '=', otherRunId)
          .whereRef('other.query_id', '=', 'ea.query_id')
          .whereRef('other.engine', '=', 'ea.engine')
          .where('other.brand_result', 'in', ANSWERED),
      ),
    );
  const competitorIds = subjects.competitors.map((competitor) => competitor.id);
  const [answers, mentions] = await Promise.all([
    coveredAnswers
      .select((eb) => [
        'ea.engine',
        eb.fn.countAll<number | string>().as('checked'),
        eb.fn.sum<number | string>(eb.case().when('ea.brand_result', '=', 'cited').then(1).else(0).end()).as('cited'),
        eb.fn.sum<number | string>(eb.case().when('ea.brand_result', '=', 'mentioned').then(1).else(0).end()).as('mentioned'),
        eb.fn.sum<number | string>(eb.case().when('ea.citations', '!=', '[]').then(1).else(0).end()).as('withCitations'),
      ])
      .groupBy('ea.engine')
      .execute(),
    coveredAnswers
      // Written as literals so that the partial index of the mentions naming a subject serves the join.
      .innerJoin('answer_mentions as m', (join) => join.onRef('m.answer_id', '=', 'ea.id').on(sql.ref('m.result'), 'in', [sql.lit('cited'), sql.lit('mentioned')]))
      .where('m.subject_id', 'in', [BRAND_SUBJECT, ...competitorIds])
      .select((eb) => [
        'ea.engine',
        'm.subject_id',
        eb.fn.countAll<number | string>().as('named'),
        eb.fn.sum<number | string>(eb.case().when('m.sentiment', '=', 'positive').then(1).else(0).end()).as('positive'),
        eb.fn.sum<number | string>(eb.case().when('m.sentiment', '=', 'neutral').then(1).else(0).end()).as('neutral'),
        eb.fn.sum<number | string>(eb.case().when('m.sentiment', '=', 'negative').then(1).else(0).end()).as('negative'),
        eb.fn.sum<number | string>(eb.fn.coalesce('m.sentiment_score', sql.lit(0))).as('scoreSum'),
      ])
      .groupBy(['ea.engine', 'm.subject_id'])
      .execute(),
  ]);
  const byEngine = new Map<EngineName, EngineCounts>();
  for (const row of answers) {
    byEngine.set(row.engine, {
      brand: { ...ZERO, checked: Number(row.checked), cited: Number(row.cited), mentioned: Number(row.mentioned), answersWithCitations: Number(row.withCitations) },
      competitors: new Map(),
    });
  }
  for (const row of mentions) {
    const engine = byEngine.get(row.engine);
    if (engine === undefined) continue;
    if (row.subject_id === BRAND_SUBJECT) {
      engine.brand = { ...engine.brand, positive: Number(row.positive), neutral: Number(row.neutral), negative: Number(row.negative), sentimentScoreSum: Number(row.scoreSum) };
    } else {
      engine.competitors.set(row.subject_id, Number(row.named));
    }
  }
  return byEngine;
}

/** Every engine's counts added up: the run as a whole. */
export function allEngines(byEngine: ReadonlyMap<EngineName, EngineCounts>): EngineCounts {
  let brand = ZERO;
  const competitors = new Map<string, number>();
  for (const counts of byEngine.values()) {
    brand = addCounts(brand, counts.brand);
    for (const [id, named] of counts.competitors) competitors.set(id, (competitors.get(id) ?? 0) + named);
  }
  return { brand, competitors };
}

/** A rate as a whole percentage, for titles: "42 %". */
export function percentText(rate: number | null): string {
  return rate === null ? 'n/a' : `${Math.round(rate * 100)} %`;
}
