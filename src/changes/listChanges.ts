import type { Kysely } from 'kysely';
import type { ChangeSeverity, Database, EngineName } from '../../db/schema.js';
import { findQuery } from '../content/queries.js';
import { fromJson } from '../shared/json.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { toIso } from '../shared/time.js';
import { CHANGE_SEVERITIES, SEVERITY_RANK, type ChangeKind } from './kinds.js';

export interface ChangeFilter extends PageRequest {
  kind?: ChangeKind | undefined;
  /** This severity and the more urgent ones. */
  severity?: ChangeSeverity | undefined;
  engine?: EngineName | undefined;
  queryId?: string | undefined;
  /** Epoch ms: detected at or after, and before. */
  from?: number | undefined;
  to?: number | undefined;
}

export interface ChangeRecord {
  id: string;
  kind: ChangeKind;
  severity: ChangeSeverity;
  title: string;
  detectedAt: string;
  engine: EngineName | null;
  queryId: string | null;
  query: string | null;
  runId: string | null;
  details: Record<string, unknown>;
}

/** What a change's row is read with, the query's text joined (as `queries`): the list, the digest and the alerts read the same. */
export const CHANGE_COLUMNS = [
  'changes.id',
  'changes.kind',
  'changes.severity',
  'changes.title',
  'changes.detected_at',
  'changes.engine',
  'changes.query_id',
  'changes.run_id',
  'changes.details',
  'queries.text as query',
] as const;

interface ChangeRow {
  id: string;
  kind: string;
  severity: ChangeSeverity;
  title: string;
  detected_at: number | string;
  engine: EngineName | null;
  query_id: string | null;
  run_id: string | null;
  details: string;
  query: string | null;
}

/** The workspace's changes, each with its tracked query joined (as `queries`), ready for CHANGE_COLUMNS and filters. */
export function workspaceChanges(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('changes')
    .leftJoin('queries', (join) => join.onRef('queries.id', '=', 'changes.query_id').onRef('queries.workspace_id', '=', 'changes.workspace_id'))
    .where('changes.workspace_id', '=', workspaceId);
}

/** A change as list_changes, the digest, the alerts and the webhook events show it. */
export function changeRecord(row: ChangeRow): ChangeRecord {
  return {
    id: row.id,
    // Written only by recordChanges, which takes a ChangeKind.
    kind: row.kind as ChangeKind,
    severity: row.severity,
    title: row.title,
    detectedAt: toIso(Number(row.detected_at)),
    engine: row.engine,
    queryId: row.query_id,
    query: row.query ?? null,
    runId: row.run_id,
    details: fromJson<Record<string, unknown>>(row.details),
  };
}

/** The workspace's changes, newest first, with the text of the query each is about. */
export async function listChanges(db: Kysely<Database>, workspaceId: string, filter: ChangeFilter) {
  // Another workspace's query is 404, as everywhere, not an empty list.
  if (filter.queryId !== undefined) await findQuery(db, workspaceId, filter.queryId);
  let query = workspaceChanges(db, workspaceId);
  if (filter.kind !== undefined) query = query.where('changes.kind', '=', filter.kind);
  if (filter.severity !== undefined) {
    const atLeast = CHANGE_SEVERITIES.filter((severity) => SEVERITY_RANK[severity] >= SEVERITY_RANK[filter.severity!]);
    query = query.where('changes.severity', 'in', atLeast);
  }
  if (filter.engine !== undefined) query = query.where('changes.engine', '=', filter.engine);
  if (filter.queryId !== undefined) query = query.where('changes.query_id', '=', filter.queryId);
  if (filter.from !== undefined) query = query.where('changes.detected_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('changes.detected_at', '<', filter.to);
  const [rows, total] = await Promise.all([
    query
      .select(CHANGE_COLUMNS)
      .orderBy('changes.detected_at', 'desc')
      .orderBy('changes.id', 'desc')
      .limit(filter.limit)
      .offset(pageOffset(filter))
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  const changes = rows.map(changeRecord);
  return { ...pageOf(filter, Number(total.count)), changes };
}
