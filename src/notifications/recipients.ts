import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';

/** The two kinds of mail a person gets from a workspace, each with its own unsubscribe link. */
export const MAIL_LISTS = ['digest', 'alerts'] as const;
export type MailList = (typeof MAIL_LISTS)[number];

export interface MailRecipient {
  userId: string;
  email: string;
  role: 'owner' | 'member';
  digest: boolean;
  alerts: boolean;
  /** 0 Sunday .. 6 Saturday, and the hour, in `timeZone`: when the person's digest is due. */
  digestDay: number;
  digestHour: number;
  /** The person's IANA time zone, else the workspace's. */
  timeZone: string;
}

/** Owners get the digest and alert mail until they turn them off; members only once they turn them on. */
export function listDefault(role: 'owner' | 'member'): boolean {
  return role === 'owner';
}

/**
 * The workspace's people with their mail settings, defaults filled in. Accounts made through a copied invite link
 * whose email was never shown to be theirs (users.verified_at null) get no mail: the address may be someone else's.
 */
export async function mailRecipients(db: Kysely<Database>, workspaceId: string): Promise<MailRecipient[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .leftJoin('notification_settings as s', (join) => join.onRef('s.workspace_id', '=', 'm.workspace_id').onRef('s.user_id', '=', 'm.user_id'))
    .select(['m.user_id', 'u.email', 'm.role', 's.digest', 's.alert_email', 's.digest_day', 's.digest_hour', 's.time_zone', 'w.time_zone as workspace_time_zone'])
    .where('m.workspace_id', '=', workspaceId)
    .where('u.verified_at', 'is not', null)
    .orderBy('u.email')
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    role: row.role,
    digest: row.digest === null ? listDefault(row.role) : row.digest === 1,
    alerts: row.alert_email === null ? listDefault(row.role) : row.alert_email === 1,
    digestDay: row.digest_day ?? 1,
    digestHour: row.digest_hour ?? 8,
    timeZone: row.time_zone ?? row.workspace_time_zone,
  }));
}

/**
 * The person's settings row, made with its defaults and a fresh unsubscribe token when there is none; returns the
 * token. Two instances making it at once keep one row (and one token).
 */
export async function unsubscribeToken(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string): Promise<string> {
  await db
    .insertInto('notification_settings')
    .values({ workspace_id: workspaceId, user_id: userId, digest: null, alert_email: null, time_zone: null, unsubscribe_token: randomBytes(24).toString('base64url'), updated_at: clock.now() })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .execute();
  const row = await db
    .selectFrom('notification_settings')
    .select('unsubscribe_token')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.unsubscribe_token;
}

/** The address a person's mail client posts to (RFC 8058) and the person opens, to stop one kind of mail. */
export function unsubscribeUrl(publicUrl: string, token: string, list: MailList): string {
  return `${publicUrl}/unsubscribe/${encodeURIComponent(token)}?list=${list}`;
}
