import type { Kysely } from 'kysely';
import type { Database, EngineName, MentionResult } from '../../../db/schema.js';
import { toIso } from '../../domain/brand/records.js';
import { ENGINE_NAMES } from '../engines/engine.js';
import { latestEngineChecks } from './latestChecks.js';
import { rankHistory } from './rankChecks.js';

export const GOOGLE_VS_AI_STATES = ['both', 'google', 'ai', 'neither', 'pending'] as const;
export type GoogleVsAiState = (typeof GOOGLE_VS_AI_STATES)[number];

export interface Configured {
  engines: readonly EngineName[];
  /** Whether a SERP provider is configured: Google rank checks run. */
  serp: boolean;
}

export async function googleVsAi(db: Kysely<Database>, workspaceId: string, configured: Configured) {
  const queries = await db.selectFrom('queries').select(['id', 'text']).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  const queryIds = queries.map((q) => q.id);
  const [ranks, latest] = await Promise.all([
    rankHistory(db, workspaceId, configured.serp ? queryIds : [], { overview: false }),
    latestEngineChecks(db, workspaceId, queryIds, configured.engines),
  ]);
  const summary: Record<GoogleVsAiState, number> = { both: 0, google: 0, ai: 0, neither: 0, pending: 0 };
  const rows = queries.map((query) => {
    const rank = configured.serp ? ranks.latest(query.id, 'google') : undefined;
    const engines = Object.fromEntries(
      ENGINE_NAMES.map((engine) => {
        if (!configured.engines.includes(engine)) return [engine, { result: 'not_configured' as const, checkedAt: null }];
        const check = latest(query.id, engine);
        return [engine, check === undefined ? { result: 'pending' as const, checkedAt: null } : { result: check.result, checkedAt: toIso(check.checkedAt) }];
      }),
    ) as Record<EngineName, { result: MentionResult | 'pending' | 'not_configured'; checkedAt: string | null }>;
    const results = Object.values(engines).map((e) => e.result);
    const onGoogle = rank?.position != null;
    const inAi = results.some((r) => r === 'cited' || r === 'mentioned');
    const measured = rank !== undefined || results.includes('none') || results.includes('not_shown') || inAi;
    const state: GoogleVsAiState = !measured ? 'pending' : onGoogle && inAi ? 'both' : onGoogle ? 'google' : inAi ? 'ai' : 'neither';
    summary[state]++;
    return {
      queryId: query.id,
      queryText: query.text,
      state,
      google: {
        status: !configured.serp ? ('not_configured' as const) : rank === undefined ? ('pending' as const) : ('checked' as const),
        position: rank?.position ?? null,
        checkedAt: toIso(rank?.checkedAt ?? null),
      },
      engines,
    };
  });
  return {
    definition:
      "Per tracked query: the brand's place in Google's top 30 from the latest rank check that answered, and the latest check of each AI engine: cited, mentioned or none " +
      '(not_shown when the search page showed no AI answer, failed when every run of that check failed, pending when not checked yet, not_configured when the operator has not configured the engine: never shown as none). ' +
      'state: both (ranks on Google and at least one engine cites or mentions the brand), google (ranks on Google, no engine names it), ai, neither, ' +
      'pending (nothing measured yet: no rank check and no engine answer, or every check so far failed).',
    engines: { configured: configured.engines, notConfigured: ENGINE_NAMES.filter((e) => !configured.engines.includes(e)) },
    googleConfigured: configured.serp,
    summary,
    rows,
  };
}
