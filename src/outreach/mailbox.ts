import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database, OutreachMailboxesTable } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { BadInputError } from '../errors.js';
import type { ImapAccount } from './imap.js';
import type { SmtpAccount } from './smtp.js';

export const DEFAULT_DAILY_CAP = 30;
export const MAX_DAILY_CAP = 500;
export const DEFAULT_QUIET_DAYS = 14;

/** Where an owner sets the mailbox up; refusals that need one name it. */
export function mailboxPagePath(workspaceId: string): string {
  return `/w/${workspaceId}/outreach/mailbox`;
}

export function noMailbox(workspaceId: string): BadInputError {
  return new BadInputError(`no outreach mailbox is configured for this workspace: an owner sets its SMTP settings in the dashboard at ${mailboxPagePath(workspaceId)}`);
}

type MailboxRow = Selectable<OutreachMailboxesTable>;

/** A host name or a literal IP address: nothing that could carry a scheme, a port or a path. */
const HOST_PATTERN = /^[A-Za-z0-9.-]+$|^[0-9a-fA-F:.]+$/;

const host = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(253)
  .regex(HOST_PATTERN, 'must be a host name such as smtp.example.com');
const port = z.coerce.number().int('must be a whole number').min(1, 'must be from 1 to 65535').max(65535, 'must be from 1 to 65535');
const flag = z.preprocess((value) => value === 'on' || value === '1' || value === 'true' || value === true, z.boolean());
const optionalText = z.string().trim().max(500).optional().default('');

/** The dashboard form: blank passwords keep the stored ones; blank IMAP host switches reading replies off. */
export const mailboxForm = z.object({
  fromName: z.string().trim().min(1, 'is required').max(100),
  fromAddress: z.email('must be an email address').max(254),
  smtpHost: host,
  smtpPort: port,
  smtpSecure: flag,
  smtpUser: z.string().trim().min(1, 'is required').max(254),
  smtpPassword: optionalText,
  imapHost: z.string().trim().max(253).optional().default(''),
  imapPort: z.union([z.literal(''), port]).optional().default(''),
  imapSecure: flag,
  imapUser: optionalText,
  imapPassword: optionalText,
  dailyCap: z.coerce.number().int('must be a whole number').min(1, `must be from 1 to ${MAX_DAILY_CAP}`).max(MAX_DAILY_CAP, `must be from 1 to ${MAX_DAILY_CAP}`),
  quietDays: z.coerce.number().int('must be a whole number').min(0, 'must be from 0 to 365').max(365, 'must be from 0 to 365'),
});
export type MailboxForm = z.output<typeof mailboxForm>;

/** What the dashboard shows: never the passwords, only whether one is stored. */
export interface MailboxView {
  fromName: string;
  fromAddress: string;
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUser: string;
  imapHost: string | null;
  imapPort: number | null;
  imapSecure: boolean;
  imapUser: string | null;
  hasImapPassword: boolean;
  dailyCap: number;
  quietDays: number;
  imapCheckedAt: number | null;
  imapError: string | null;
}

export async function readMailboxView(db: Kysely<Database>, workspaceId: string): Promise<MailboxView | undefined> {
  const row = await db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    fromName: row.from_name,
    fromAddress: row.from_address,
    smtpHost: row.smtp_host,
    smtpPort: row.smtp_port,
    smtpSecure: row.smtp_secure === 1,
    smtpUser: row.smtp_user,
    imapHost: row.imap_host,
    imapPort: row.imap_port,
    imapSecure: row.imap_secure === 1,
    imapUser: row.imap_user,
    hasImapPassword: row.imap_password !== null,
    dailyCap: row.daily_cap,
    quietDays: row.quiet_days,
    imapCheckedAt: row.imap_checked_at === null ? null : Number(row.imap_checked_at),
    imapError: row.imap_error,
  };
}

/** The first problem of a form, as `field: rule`. */
export function formProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/**
 * Saves the mailbox settings; passwords are sealed. A blank password keeps the stored one (the form never shows it
 * back); a new mailbox needs its SMTP password, and an IMAP host needs port, user and password.
 */
export async function saveMailbox(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer, workspaceId: string, form: MailboxForm): Promise<void> {
  const existing = await db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  const smtpPassword = form.smtpPassword !== '' ? credentials.seal(form.smtpPassword) : existing?.smtp_password;
  if (smtpPassword === undefined) throw BadInputError.field('smtpPassword', 'is required');
  const reading = form.imapHost !== '';
  if (reading && !HOST_PATTERN.test(form.imapHost)) throw BadInputError.field('imapHost', 'must be a host name such as imap.example.com');
  if (reading && form.imapPort === '') throw BadInputError.field('imapPort', 'is required with an IMAP host');
  const imapUser = form.imapUser === '' ? form.smtpUser : form.imapUser;
  const imapPassword = !reading ? null : form.imapPassword !== '' ? credentials.seal(form.imapPassword) : (existing?.imap_password ?? null);
  if (reading && imapPassword === null) throw BadInputError.field('imapPassword', 'is required with an IMAP host');
  const sameInbox = existing !== undefined && existing.imap_host === form.imapHost && existing.imap_user === imapUser;
  const now = clock.now();
  const values = {
    from_name: form.fromName,
    from_address: form.fromAddress.toLowerCase(),
    smtp_host: form.smtpHost,
    smtp_port: form.smtpPort,
    smtp_secure: form.smtpSecure ? 1 : 0,
    smtp_user: form.smtpUser,
    smtp_password: smtpPassword,
    imap_host: reading ? form.imapHost : null,
    imap_port: reading && form.imapPort !== '' ? form.imapPort : null,
    imap_secure: reading ? (form.imapSecure ? 1 : 0) : null,
    imap_user: reading ? imapUser : null,
    imap_password: imapPassword,
    daily_cap: form.dailyCap,
    quiet_days: form.quietDays,
    // Another inbox starts its reading afresh.
    ...(sameInbox ? {} : { imap_uid_validity: null, imap_last_uid: null, imap_checked_at: null, imap_error: null }),
    updated_at: now,
  };
  await db
    .insertInto('outreach_mailboxes')
    .values({ workspace_id: workspaceId, ...values, imap_uid_validity: null, imap_last_uid: null, imap_checked_at: null, imap_error: null, created_at: now })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
    .execute();
}

export async function removeMailbox(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.deleteFrom('outreach_mailboxes').where('workspace_id', '=', workspaceId).execute();
}

export interface Mailbox {
  workspaceId: string;
  fromName: string;
  fromAddress: string;
  dailyCap: number;
  quietDays: number;
  row: MailboxRow;
}

export async function findMailbox(db: Kysely<Database>, workspaceId: string): Promise<Mailbox | undefined> {
  const row = await db.selectFrom('outreach_mailboxes').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  return { workspaceId, fromName: row.from_name, fromAddress: row.from_address, dailyCap: row.daily_cap, quietDays: row.quiet_days, row };
}

/** The SMTP account with its password opened: only for the moment of sending. */
export function smtpAccount(mailbox: Mailbox, credentials: CredentialSealer): SmtpAccount {
  const { row } = mailbox;
  return { host: row.smtp_host, port: row.smtp_port, secure: row.smtp_secure === 1, user: row.smtp_user, password: credentials.open(row.smtp_password) };
}

/** The IMAP account, or undefined when replies are not read. */
export function imapAccount(mailbox: Mailbox, credentials: CredentialSealer): ImapAccount | undefined {
  const { row } = mailbox;
  if (row.imap_host === null || row.imap_port === null || row.imap_user === null || row.imap_password === null) return undefined;
  return { host: row.imap_host, port: row.imap_port, secure: row.imap_secure === 1, user: row.imap_user, password: credentials.open(row.imap_password) };
}
