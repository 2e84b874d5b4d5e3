import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { toIso } from '../shared/time.js';

export const ANALYTICS_SCREENS = ['analytics', 'reports'] as const;
export type AnalyticsScreen = (typeof ANALYTICS_SCREENS)[number];

/**
 * Activates a screen once; activating it again changes nothing and keeps the first time. The insert that does nothing
 * on a conflict decides, so two calls racing cannot both claim the activation.
 */
export async function activateScreen(db: Kysely<Database>, clock: Clock, workspaceId: string, screen: AnalyticsScreen) {
  const inserted = await db
    .insertInto('analytics_screens')
    .values({ workspace_id: workspaceId, screen, activated_at: clock.now() })
    .onConflict((oc) => oc.columns(['workspace_id', 'screen']).doNothing())
    .executeTakeFirst();
  const row = await db.selectFrom('analytics_screens').select('activated_at').where('workspace_id', '=', workspaceId).where('screen', '=', screen).executeTakeFirstOrThrow();
  return { screen, active: true as const, activatedAt: toIso(Number(row.activated_at)), alreadyActive: inserted.numInsertedOrUpdatedRows === 0n };
}

/** Whether the workspace has activated the screen; reads of a screen answer null until then. */
export async function screenActive(db: Kysely<Database>, workspaceId: string, screen: AnalyticsScreen): Promise<boolean> {
  const row = await db.selectFrom('analytics_screens').select('screen').where('workspace_id', '=', workspaceId).where('screen', '=', screen).executeTakeFirst();
  return row !== undefined;
}
