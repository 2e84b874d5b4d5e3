import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import type { CredentialSealer } from '../../src/credentials/sealed.js';
import { newId } from '../../src/ids.js';
import { mailboxForm, saveMailbox, type MailboxForm } from '../../src/outreach/mailbox.js';
import type { TestService, TestWorkspace } from '../support/harness.js';

/** A prospect as the prospect list leaves it (that part of issue 16 is built elsewhere): identified, with a contact. */
export async function insertProspect(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  options: { domain?: string; contactEmail?: string | null; stage?: Database['outreach_prospects']['stage'] } = {},
): Promise<string> {
  const id = newId('prs');
  const domain = options.domain ?? `blog-${id.slice(-8)}.example`;
  await db
    .insertInto('outreach_prospects')
    .values({
      id,
      workspace_id: workspaceId,
      domain,
      page_url: `https://${domain}/best-crm-tools`,
      title: 'The best CRM tools for clinics',
      origin: 'competitor_citation',
      reason: 'cites competitor Rival CRM in answers to "best crm for dentists"',
      target_url: 'https://acme.example/crm-for-dentists',
      stage: options.stage ?? 'identified',
      stage_changed_at: clock.now(),
      contact_email: options.contactEmail === undefined ? `editor@${domain}` : options.contactEmail,
      contact_name: 'Dana Editor',
      contact_confidence: 90,
      contact_source: 'import',
      contact_found_at: clock.now(),
      created_at: clock.now(),
    })
    .execute();
  return id;
}

/** A draft as draft_outreach_reply stores it, without a writer call. */
export async function insertDraft(db: Kysely<Database>, clock: Clock, workspaceId: string, prospectId: string, options: { to?: string; inReplyTo?: string } = {}): Promise<string> {
  const id = newId('msg');
  await db
    .insertInto('outreach_messages')
    .values({
      id,
      workspace_id: workspaceId,
      prospect_id: prospectId,
      direction: 'out',
      state: 'draft',
      to_address: options.to ?? '',
      from_address: '',
      subject: options.inReplyTo === undefined ? 'A resource for your CRM list' : 'Re: A resource for your CRM list',
      body_text: 'Hello Dana,\n\nYour list of CRM tools is useful. Our guide to CRMs for dental clinics could help your readers.\n\nBest, Ada',
      message_id: null,
      in_reply_to: options.inReplyTo ?? null,
      references: options.inReplyTo ?? null,
      queued_for: null,
      sent_at: null,
      error: null,
      job_id: null,
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  return id;
}

/** A message the prospect sent us, as the mailbox reader stores it (read `at`, by default now). */
export async function insertReceived(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  prospectId: string,
  options: { id?: string; from?: string; subject?: string; body?: string; messageId?: string; inReplyTo?: string; at?: number } = {},
): Promise<string> {
  const id = options.id ?? newId('msg');
  const at = options.at ?? clock.now();
  await db
    .insertInto('outreach_messages')
    .values({
      id,
      workspace_id: workspaceId,
      prospect_id: prospectId,
      direction: 'in',
      state: 'received',
      to_address: 'ada@acme.example',
      from_address: options.from ?? 'dana@clinicblog.example',
      subject: options.subject ?? 'Re: A resource for your CRM list',
      body_text: options.body ?? 'Sounds good: which page do you mean?',
      message_id: options.messageId ?? `<${id}@clinicblog.example>`,
      in_reply_to: options.inReplyTo ?? null,
      references: options.inReplyTo ?? null,
      queued_for: null,
      sent_at: at,
      error: null,
      job_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

export const MAILBOX_FORM: Record<string, string> = {
  fromName: 'Ada from Acme',
  fromAddress: 'ada@acme.example',
  smtpHost: 'smtp.acme.example',
  smtpPort: '587',
  smtpUser: 'ada@acme.example',
  smtpPassword: 'smtp-secret',
  dailyCap: '30',
  quietDays: '14',
};

/** The mailbox as an owner saves it in the dashboard. */
export async function configureMailbox(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer, workspaceId: string, overrides: Record<string, string> = {}): Promise<MailboxForm> {
  const form = mailboxForm.parse({ ...MAILBOX_FORM, ...overrides });
  await saveMailbox(db, clock, credentials, workspaceId, form);
  return form;
}

/** A first email to a new prospect at `to`: drafted, queued with queue_outreach_send and run by its job; the stored message. */
export async function sendFirstEmail(t: TestService, ws: TestWorkspace, to: string) {
  const prospectId = await insertProspect(t.db, t.clock, ws.workspaceId, { contactEmail: to });
  const messageId = await insertDraft(t.db, t.clock, ws.workspaceId, prospectId);
  const queued = await t.rest(ws.key, 'POST', '/api/v1/outreach/queue', { messageId, confirm: true });
  if (queued.status !== 200) throw new Error(`queue_outreach_send answered ${queued.status}: ${JSON.stringify(queued.body)}`);
  await t.jobs.drain();
  return { prospectId, message: await t.db.selectFrom('outreach_messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow() };
}
