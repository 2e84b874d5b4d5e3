import { sql, type Kysely } from 'kysely';
import type { Database, MentionResult } from '../../../db/schema.js';
import { textKey } from '../../content/articles.js';
import { DAY_MS } from '../../shared/time.js';
import { rankHistory } from '../rankings/rankChecks.js';
import { consoleQueries } from '../rankings/searchConsole.js';
import { trackedQueryPeriods, trendingScore } from './trending.js';

/** Content ideas weigh the answers of the last 30 days. */
export const SIGNAL_WINDOW_DAYS = 30;

export interface QuerySignals {
  /** Answers citing at least one source but not the brand / answers (failed checks left out); null without answers. */
  citationGapRate: number | null;
  /** Answers citing or mentioning a tracked competitor / answers; null without answers or without competitors. */
  competitorCitationRate: number | null;
  /** Growth of the query's Search Console impressions and clicks, last 28 days against the 28 before (see trendingScore). */
  trendingScore: number | null;
  /** The brand's position in the latest Google check that answered, when in the top 30. */
  googlePosition: number | null;
  /** The workspace's page in that check. */
  rankingPage: string | null;
  /** The page Search Console shows most clicks (then impressions) on for the query. */
  readPage: string | null;
}

const ratio = (count: number, of: number) => (of > 0 ? Math.round((10_000 * count) / of) / 10_000 : null);

/** What the checks measured about each query, read from the answers of the window, the rank checks and Search Console. */
export async function querySignals(db: Kysely<Database>, workspaceId: string, queries: ReadonlyArray<{ id: string; text: string }>, now: number): Promise<Map<string, QuerySignals>> {
  const ids = queries.map((q) => q.id);
  if (ids.length === 0) return new Map();
  const since = now - SIGNAL_WINDOW_DAYS * DAY_MS;
  const [totals, ranks, console, consolePeriods, anyCompetitor] = await Promise.all([
    // One pass over the window's answers: each asks the partial index answer_mentions_named (which the literal
    // results reach) whether it names a live competitor, rather than joining every mention row of every answer.
    db
      .selectFrom('engine_answers as a')
      .where('a.workspace_id', '=', workspaceId)
      .where('a.checked_at', '>=', since)
      .where('a.error_class', 'is', null)
      .where('a.query_id', 'in', ids)
      .select(['a.query_id', (eb) => eb.fn.countAll<number | string>().as('answers')])
      .select((eb) =>
        eb.fn
          .sum<number | string>(eb.case().when(eb.and([eb('a.brand_result', '!=', 'cited'), eb('a.citations', '!=', '[]')])).then(1).else(0).end())
          .as('gaps'),
      )
      .select((eb) =>
        eb.fn
          .sum<number | string>(
            eb
              .case()
              .when(
                eb.exists(
                  eb
                    .selectFrom('answer_mentions as m')
                    .innerJoin('competitors as c', (join) => join.onRef('c.id', '=', 'm.subject_id').on('c.removed_at', 'is', null))
                    .select('m.subject_id')
                    .whereRef('m.answer_id', '=', 'a.id')
                    .where('m.result', 'in', [sql.lit<MentionResult>('cited'), sql.lit<MentionResult>('mentioned')]),
                ),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('competitorAnswers'),
      )
      .groupBy('a.query_id')
      .execute(),
    rankHistory(db, workspaceId, { overview: false }),
    consoleQueries(db, workspaceId),
    trackedQueryPeriods(db, workspaceId),
    db.selectFrom('competitors').select('id').where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).limit(1).executeTakeFirst(),
  ]);
  const tracksCompetitors = anyCompetitor !== undefined;
  const totalOf = new Map(totals.map((row) => [row.query_id, { answers: Number(row.answers), gaps: Number(row.gaps), competitorAnswers: Number(row.competitorAnswers) }]));
  return new Map(
    queries.map((query) => {
      const total = totalOf.get(query.id) ?? { answers: 0, gaps: 0, competitorAnswers: 0 };
      const google = ranks.latest(query.id, 'google');
      const periods = consolePeriods.get(textKey(query.text));
      return [
        query.id,
        {
          citationGapRate: ratio(total.gaps, total.answers),
          competitorCitationRate: tracksCompetitors ? ratio(total.competitorAnswers, total.answers) : null,
          trendingScore: trendingScore(periods?.current, periods?.previous),
          googlePosition: google?.position ?? null,
          rankingPage: google?.url ?? null,
          readPage: console.get(textKey(query.text))?.pages[0]?.page ?? null,
        },
      ];
    }),
  );
}
