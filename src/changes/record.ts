import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { toJson } from '../shared/json.js';
import { queueAlerts } from './alertQueue.js';
import { CHANGE_KINDS, type ChangeKind } from './kinds.js';
import { loadRules, ruleAllows, type AlertRules } from './rules.js';

/** A change as a detector or an area reports it. */
export interface NoticedChange {
  kind: ChangeKind;
  /** What makes it the same change when it is found again: recorded once per workspace. */
  dedupeKey: string;
  /** One plain-text line: what changed, with the figure. */
  title: string;
  details: Record<string, unknown>;
  engine?: EngineName | null;
  queryId?: string | null;
  runId?: string | null;
}

/**
 * Records the changes the workspace's rules let through, each once: a change found again (a job run twice, two
 * instances) is left as it was. Runs in the caller's transaction when there is one, so a change exists exactly when the
 * state that shows it does, and so is the alert job that sends them (only when something was recorded). Returns the
 * ids of the changes recorded now.
 */
export async function recordChanges(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  changes: readonly NoticedChange[],
  rules?: AlertRules,
): Promise<string[]> {
  if (changes.length === 0) return [];
  const workspaceRules = rules ?? (await loadRules(db, workspaceId));
  const now = clock.now();
  const recorded: string[] = [];
  for (const change of changes) {
    const subject = { engine: change.engine ?? null, queryId: change.queryId ?? null };
    if (!ruleAllows(workspaceRules[change.kind], subject)) continue;
    const id = newId('chg');
    const inserted = await db
      .insertInto('changes')
      .values({
        id,
        workspace_id: workspaceId,
        kind: change.kind,
        severity: CHANGE_KINDS[change.kind].severity,
        dedupe_key: `${change.kind}:${change.dedupeKey}`,
        title: change.title,
        details: toJson(change.details),
        engine: subject.engine,
        query_id: subject.queryId,
        run_id: change.runId ?? null,
        detected_at: now,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'dedupe_key']).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 1n) recorded.push(id);
  }
  if (recorded.length > 0) await queueAlerts(db, clock, workspaceId);
  return recorded;
}

/** Runs `work` in the caller's transaction, or in one of its own: an area marks its state and records the change together. */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
