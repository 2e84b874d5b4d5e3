import type { Kysely } from 'kysely';
import type { Database, SocialSourceName, SocialThreadStatus } from '../../db/schema.js';
import type { Services } from '../outsideServices.js';
import { toIso } from '../shared/time.js';
import { SOURCE_SETTINGS } from './sources/index.js';
import { SOCIAL_SOURCE_NAMES } from './sources/source.js';
import { THREAD_STATUSES } from './threads.js';

/** Threads per status and per source, each source with whether it is configured (and what to set when not), and the last search. */
export async function socialStats(db: Kysely<Database>, services: Pick<Services, 'socialSources'>, workspaceId: string) {
  const [perStatus, perSource, pauses, lastSearch] = await Promise.all([
    db.selectFrom('social_threads').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).where('workspace_id', '=', workspaceId).groupBy('status').execute(),
    db.selectFrom('social_threads').select(['source', (eb) => eb.fn.countAll<number | string>().as('n')]).where('workspace_id', '=', workspaceId).groupBy('source').execute(),
    db.selectFrom('social_source_pauses').select(['source', 'until']).execute(),
    db
      .selectFrom('jobs')
      .select(['id', 'state', 'created_at', 'finished_at', 'error'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'social_search')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const byStatus = Object.fromEntries(THREAD_STATUSES.map((status) => [status, Number(perStatus.find((row) => row.status === status)?.n ?? 0)])) as Record<SocialThreadStatus, number>;
  const pausedUntil = (source: SocialSourceName) => {
    const until = Math.max(0, ...pauses.filter((pause) => pause.source === source).map((pause) => Number(pause.until)));
    return until > 0 ? until : null;
  };
  return {
    total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
    byStatus,
    bySource: SOCIAL_SOURCE_NAMES.map((source) => {
      const until = pausedUntil(source);
      return {
        source,
        configured: services.socialSources[source] !== undefined,
        toConfigure: services.socialSources[source] === undefined ? SOURCE_SETTINGS[source] : null,
        threads: Number(perSource.find((row) => row.source === source)?.n ?? 0),
        pausedUntil: until === null ? null : toIso(until),
      };
    }),
    lastSearch:
      lastSearch === undefined
        ? null
        : {
            jobId: lastSearch.id,
            state: lastSearch.state,
            queuedAt: toIso(Number(lastSearch.created_at)),
            finishedAt: toIso(lastSearch.finished_at === null ? null : Number(lastSearch.finished_at)),
            error: lastSearch.error,
          },
  };
}
