import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../../db/schema.js';
import { fromJson } from '../../shared/json.js';
import { toIso } from '../../shared/time.js';
import type { Citation } from '../engines/engine.js';

export const DEFAULT_CITATIONS_PAGE = 100;
export const MAX_CITATIONS_PAGE = 200;

/**
 * `before` as epoch milliseconds (digits only) or an ISO 8601 date (UTC midnight) or date-time with its zone (a time
 * without one would be read in the server's zone); undefined when it is neither.
 */
export function parseBefore(value: string): number | undefined {
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export interface CitationPage {
  model?: EngineName | undefined;
  limit: number;
  /** Epoch ms: only checks strictly older than this. */
  before?: number | undefined;
}

/**
 * Recent checks, newest first, a page at a time. checked_at is unique per workspace and a new answer always gets a
 * later time than every stored one, so paging by time neither skips nor repeats a row, even while checks are recorded.
 */
export async function listCitations(db: Kysely<Database>, workspaceId: string, page: CitationPage) {
  let query = db
    .selectFrom('engine_answers')
    .innerJoin('queries', 'queries.id', 'engine_answers.query_id')
    .select([
      'engine_answers.id',
      'engine_answers.query_id',
      'queries.text',
      'engine_answers.engine',
      'engine_answers.model',
      'engine_answers.run_index',
      'engine_answers.brand_result',
      'engine_answers.error_class',
      'engine_answers.citations',
      'engine_answers.checked_at',
    ])
    .where('engine_answers.workspace_id', '=', workspaceId);
  if (page.model !== undefined) query = query.where('engine_answers.engine', '=', page.model);
  if (page.before !== undefined) query = query.where('engine_answers.checked_at', '<', page.before);
  const rows = await query.orderBy('engine_answers.checked_at', 'desc').limit(page.limit).execute();
  const last = rows.at(-1);
  return {
    checks: rows.map((row) => ({
      checkId: row.id,
      queryId: row.query_id,
      queryText: row.text,
      model: row.engine,
      modelVersion: row.model,
      runIndex: row.run_index,
      cited: row.brand_result === 'cited',
      result: row.brand_result,
      errorClass: row.error_class,
      citations: fromJson<Citation[]>(row.citations),
      checkedAt: toIso(row.checked_at),
    })),
    // Only a full page may have older rows after it.
    nextBefore: rows.length === page.limit && last !== undefined ? toIso(last.checked_at) : null,
  };
}
