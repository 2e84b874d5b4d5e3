import { sql, type Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { toIso } from '../../domain/brand/records.js';
import { ENGINE_NAMES } from '../engines/engine.js';
import { engineMask, latestEngineChecks } from './latestChecks.js';
import { rankHistory } from './rankChecks.js';
import { pageOf, pageOffset, type PageRequest } from './reportPage.js';

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
 * Each query's state in SQL, from one row per query (its Google rank and its engines' masks), so that the summary
 * and the page are counted and cut in the database however many queries there are.
 */
function statedQueries(db: Kysely<Database>, workspaceId: string, configured: Configured) {
  const engines = engineMask(configured.engines.map((engine) => ({ engine })));
  const ranked = configured.serp ? sql<boolean>`g.query_id is not null` : sql<boolean>`1 = 0`;
  const onGoogle = configured.serp ? sql<boolean>`g.position is not null` : sql<boolean>`1 = 0`;
  const inAi = sql<boolean>`(coalesce(m.named, 0) & ${engines}) <> 0`;
  const answered = sql<boolean>`(coalesce(m.answered, 0) & ${engines}) <> 0`;
  return db
    .selectFrom('queries as q')
    .leftJoin('rank_latest as g', (join) => join.onRef('g.workspace_id', '=', 'q.workspace_id').onRef('g.query_id', '=', 'q.id').on('g.search_engine', '=', 'google'))
    .leftJoin('query_engines_latest as m', (join) => join.onRef('m.workspace_id', '=', 'q.workspace_id').onRef('m.query_id', '=', 'q.id'))
    .where('q.workspace_id', '=', workspaceId)
    .select(['q.id', 'q.text', 'q.created_at'])
    .select(
      sql<GoogleVsAiState>`case when not (${ranked} or ${answered}) then 'pending' when ${onGoogle} and ${inAi} then 'both' when ${onGoogle} then 'google' when ${inAi} then 'ai' else 'neither' end`.as(
        'state',
      ),
    );
}

export async function googleVsAi(db: Kysely<Database>, workspaceId: string, configured: Configured, request: GoogleVsAiRequest) {
  const stated = statedQueries(db, workspaceId, configured);
  const [counts, items] = await Promise.all([
    db.selectFrom(stated.as('s')).select(['s.state', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('s.state').execute(),
    db
      .selectFrom(stated.as('s'))
      .select(['s.id', 's.text', 's.state'])
      .$if(request.state !== undefined, (qb) => qb.where('s.state', '=', request.state!))
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(request.limit)
      .offset(pageOffset(request))
      .execute(),
  ]);
  const summary: Record<GoogleVsAiState, number> = { both: 0, google: 0, ai: 0, neither: 0, pending: 0 };
  for (const row of counts) summary[row.state] = Number(row.n);
  const total = request.state === undefined ? Object.values(summary).reduce((sum, n) => sum + n, 0) : summary[request.state];
  const ids = items.map((item) => item.id);
  const [ranks, latest] = await Promise.all([
    configured.serp ? rankHistory(db, workspaceId, { overview: false, queryIds: ids }) : undefined,
    latestEngineChecks(db, workspaceId, configured.engines, ids),
  ]);
  const rows = items.map((query) => {
    const rank = ranks?.latest(query.id, 'google');
    return {
      queryId: query.id,
      queryText: query.text,
      state: query.state,
      google: {
        status: !configured.serp ? ('not_configured' as const) : rank === undefined ? ('pending' as const) : ('checked' as const),
        position: rank?.position ?? null,
        checkedAt: toIso(rank?.checkedAt ?? null),
      },
      engines: Object.fromEntries(
        ENGINE_NAMES.map((engine) => {
          if (!configured.engines.includes(engine)) return [engine, { result: 'not_configured' as const, checkedAt: null }];
          const check = latest(query.id, engine);
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
