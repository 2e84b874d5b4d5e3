import { sql, type Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { pageOf, pageOffset, type PageRequest } from '../../shared/paging.js';
import { toIso } from '../../shared/time.js';
import { ENGINE_NAMES } from '../engines/engine.js';
import { engineChecksOf, engineMask } from './latestChecks.js';

export const GOOGLE_VS_AI_STATES = ['both', 'google', 'ai', 'neither', 'pending'] as const;
export type GoogleVsAiState = (typeof GOOGLE_VS_AI_STATES)[number];

export interface Configured {
  engines: readonly EngineName[];
  /** Whether a SERP provider is configured: Google rank checks run. */
  serp: boolean;
}

export interface GoogleVsAiRequest extends PageRequest {
  /** Only the rows in this state; the summary still counts every query. */
  state?: GoogleVsAiState;
}

/**
 * A query's state in SQL, from its query_latest row (its Google place and its engines' masks), which every tracked
 * query has: the summary counts them in the database, and the page reads only its own rows.
 */
function stateOf(configured: Configured) {
  const engines = engineMask(configured.engines.map((engine) => ({ engine })));
  const ranked = configured.serp ? sql<boolean>`m.google_checked = 1` : sql<boolean>`1 = 0`;
  const onGoogle = configured.serp ? sql<boolean>`m.google_position is not null` : sql<boolean>`1 = 0`;
  // A literal, so that the summary can group by the very expression it selects.
  const inAi = sql<boolean>`(m.named & ${sql.lit(engines)}) <> 0`;
  const answered = sql<boolean>`(m.answered & ${sql.lit(engines)}) <> 0`;
  return sql<GoogleVsAiState>`case when not (${ranked} or ${answered}) then 'pending' when ${onGoogle} and ${inAi} then 'both' when ${onGoogle} then 'google' when ${inAi} then 'ai' else 'neither' end`;
}

export async function googleVsAi(db: Kysely<Database>, workspaceId: string, configured: Configured, request: GoogleVsAiRequest) {
  const state = stateOf(configured);
  const [counts, items] = await Promise.all([
    db
      .selectFrom('query_latest as m')
      .where('m.workspace_id', '=', workspaceId)
      .select([state.as('state'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(state)
      .execute(),
    // The page from the covering index alone, in the order the queries were added; then its rows' checks and wording.
    db
      .selectFrom(
        db
          .selectFrom('query_latest as m')
          .where('m.workspace_id', '=', workspaceId)
          .select(['m.query_id', 'm.added_at', state.as('state')])
          .$if(request.state !== undefined, (qb) => qb.where(state, '=', request.state!))
          .orderBy('m.added_at')
          .orderBy('m.query_id')
          .limit(request.limit)
          .offset(pageOffset(request))
          .as('p'),
      )
      .innerJoin('query_latest as m', (join) => join.on('m.workspace_id', '=', workspaceId).onRef('m.query_id', '=', 'p.query_id'))
      .innerJoin('queries as q', 'q.id', 'p.query_id')
      .select(['p.query_id', 'p.state', 'q.text', 'm.google_checked', 'm.google_position', 'm.google_checked_at', 'm.engine_checks'])
      .orderBy('p.added_at')
      .orderBy('p.query_id')
      .execute(),
  ]);
  const summary: Record<GoogleVsAiState, number> = { both: 0, google: 0, ai: 0, neither: 0, pending: 0 };
  for (const count of counts) summary[count.state] = Number(count.n);
  const total = request.state === undefined ? Object.values(summary).reduce((sum, n) => sum + n, 0) : summary[request.state];
  const rows = items.map((item) => {
    const latest = engineChecksOf(item.engine_checks);
    return {
      queryId: item.query_id,
      queryText: item.text,
      state: item.state,
      google: {
        status: !configured.serp ? ('not_configured' as const) : item.google_checked === 1 ? ('checked' as const) : ('pending' as const),
        position: configured.serp ? item.google_position : null,
        checkedAt: configured.serp ? toIso(item.google_checked_at) : null,
      },
      engines: Object.fromEntries(
        ENGINE_NAMES.map((engine) => {
          if (!configured.engines.includes(engine)) return [engine, { result: 'not_configured' as const, checkedAt: null }];
          const check = latest(engine);
          return [engine, check === undefined ? { result: 'pending' as const, checkedAt: null } : { result: check.result, checkedAt: toIso(check.checkedAt) }];
        }),
      ) as Record<EngineName, { result: MentionResult | 'pending' | 'not_configured'; checkedAt: string | null }>,
    };
  });
  return {
    definition:
      "Per tracked query: the brand's place in Google's top 30 from the latest rank check that answered, and the latest check of each AI engine: cited, mentioned or none " +
      '(not_shown when the search page showed no AI answer, failed when every run of that check failed, pending when not checked yet, not_configured when the operator has not configured the engine: never shown as none). ' +
      'state: both (ranks on Google and at least one engine cites or mentions the brand), google (ranks on Google, no engine names it), ai, neither, ' +
      'pending (nothing measured yet: no rank check and no engine answer, or every check so far failed). ' +
      'summary counts every tracked query; rows are those of the page asked for, in the order the queries were added (total: rows in the state asked for).',
    engines: { configured: configured.engines, notConfigured: ENGINE_NAMES.filter((e) => !configured.engines.includes(e)) },
    googleConfigured: configured.serp,
    summary,
    ...pageOf(request, total),
    rows,
  };
}
