import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';

export interface NewSupportMessage {
  workspaceId: string;
  /** The key that filed it, so the operator can tell which integration wrote in. */
  apiKeyId: string | null;
  message: string;
  subject?: string | undefined;
  contactEmail?: string | undefined;
}

export async function createSupportMessage(db: Kysely<Database>, clock: Clock, input: NewSupportMessage) {
  const messageId = newId('msg');
  const now = clock.now();
  await db
    .insertInto('support_messages')
    .values({
      id: messageId,
      workspace_id: input.workspaceId,
      api_key_id: input.apiKeyId,
      // An empty subject line is no subject line.
      subject: input.subject || null,
      message: input.message,
      contact_email: input.contactEmail ?? null,
      created_at: now,
    })
    .execute();
  return { messageId, receivedAt: new Date(now).toISOString() };
}

/** Newest first, across workspaces unless one is named: this is the operator's inbox, not an API read. */
export async function listSupportMessages(db: Kysely<Database>, options: { workspaceId?: string | undefined; limit: number }) {
  let query = db
    .selectFrom('support_messages')
    .innerJoin('workspaces', 'workspaces.id', 'support_messages.workspace_id')
    .selectAll('support_messages')
    .select('workspaces.name as workspace_name');
  if (options.workspaceId !== undefined) query = query.where('support_messages.workspace_id', '=', options.workspaceId);
  const rows = await query.orderBy('support_messages.created_at', 'desc').orderBy('support_messages.id', 'desc').limit(options.limit).execute();
  return rows.map((r) => ({
    messageId: r.id,
    workspaceId: r.workspace_id,
    workspaceName: r.workspace_name,
    apiKeyId: r.api_key_id,
    subject: r.subject,
    message: r.message,
    contactEmail: r.contact_email,
    receivedAt: new Date(r.created_at).toISOString(),
  }));
}
