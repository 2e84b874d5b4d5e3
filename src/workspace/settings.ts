import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Whether a string names a time zone this runtime knows. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export interface WorkspaceSettingsChange {
  /** An IANA time zone name, checked by the operation's input schema. */
  timeZone: string;
}

/** Changes the workspace's settings and answers them. */
export async function updateWorkspaceSettings(db: Kysely<Database>, workspaceId: string, change: WorkspaceSettingsChange) {
  await db.updateTable('workspaces').set({ time_zone: change.timeZone }).where('id', '=', workspaceId).execute();
  const row = await db.selectFrom('workspaces').select(['name', 'website_url', 'time_zone']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return { name: row.name, websiteUrl: row.website_url, timeZone: row.time_zone };
}
