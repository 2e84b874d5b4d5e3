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
 * Each query's state in SQL, from one row per query (its Google place and its engines' masks), in the order the
 * queries were added: one pass gives the summary and the page, without reading any check.
 */
function statedQueries(db: Kysely<Database>, workspaceId: string, configured: Configured) {
  const engines = engineMask(configured.engines.map((engine) => ({ engine })));
  const ranked = configured.serp ? sql<boolean>`coalesce(m.google_checked, 0) = 1` : sql<boolean>`1 = 0`;
  const onGoogle = configured.serp ? sql<boolean>`m.google_position is not null` : sql<boolean>`1 = 0`;
  const inAi = sql<boolean>`(coalesce(m.named, 0) & ${engines}) <> 0`;
  const answered = sql<boolean>`(coalesce(m.answered, 0) & ${engines}) <> 0`;
  return db
    .selectFrom('queries as q')
    .leftJoin('query_latest as m', (join) => join.onRef('m.workspace_id', '=', 'q.workspace_id').onRef('m.query_id', '=', 'q.id'))
    .where('q.workspace_id', '=', workspaceId)
    .select('q.id')
    .orderBy('q.created_at')
    .orderBy('q.id')
    .select(
      sql<GoogleVsAiState>`case when not (${ranked} or ${answered}) then 'pending' when ${onGoogle} and ${inAi} then 'both' when ${onGoogle} then 'google' when ${inAi} then 'ai' else 'neither' end`.as(
        'state',
      ),
    );
}

export async function googleVsAi(db: Kysely<Database>, workspaceId: string, configured: Configured, request: GoogleVsAiRequest) {
  const stated = await statedQueries(db, workspaceId, configured).execute();
  const summary: Record<GoogleVsAiState, number> = { both: 0, google: 0, ai: 0, neither: 0, pending: 0 };
  for (const query of stated) summary[query.state]++;
  const inState = request.state === undefined ? stated : stated.filter((query) => query.state === request.state);
  const items = inState.slice(pageOffset(request), pageOffset(request) + request.limit);
  const ids = items.map((item) => item.id);
  const [texts, ranks, latest] = await Promise.all([
    ids.length === 0 ? [] : db.selectFrom('queries').select(['id', 'text']).where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute(),
    configured.serp ? rankHistory(db, workspaceId, { overview: false, queryIds: ids }) : undefined,
    latestEngineChecks(db, workspaceId, configured.engines, ids),
  ]);
  const textOf = new Map(texts.map((query) => [query.id, query.text]));
  const rows = items.map((query) => {
    const rank = ranks?.latest(query.id, 'google');
    return {
      queryId: query.id,
      queryText: textOf.get(query.id)!,
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
    ...pageOf(request, inState.length),
    rows,
  };
}
