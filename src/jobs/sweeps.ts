import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Periodic work over the whole database (auto-write and auto-publish, the weekly checks), run by one instance at a time. */
export interface Sweep {
  /** Names the sweep's claim: instances claiming the same name share one schedule. */
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/**
 * True when this instance may run the sweep now: it moved the sweep's next run forward from a time that had come (or
 * created the schedule). The move is one conditional statement, so of several instances looking at once one wins.
 */
export async function claimSweep(db: Kysely<Database>, sweep: Pick<Sweep, 'name' | 'everyMs'>, instanceId: string, now: number): Promise<boolean> {
  const claim = { next_run_at: now + sweep.everyMs, claimed_by: instanceId, claimed_at: now };
  const moved = await db.updateTable('sweep_claims').set(claim).where('name', '=', sweep.name).where('next_run_at', '<=', now).executeTakeFirst();
  if (moved.numUpdatedRows === 1n) return true;
  const created = await db
    .insertInto('sweep_claims')
    .values({ name: sweep.name, ...claim })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return (created.numInsertedOrUpdatedRows ?? 0n) === 1n;
}
