import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, SchedulerTool } from '../../db/schema.js';
import { noteBrokenConnection } from '../changes/connections.js';
import { inTransaction } from '../changes/record.js';
import type { Clock } from '../clock.js';
import type { SchedulerUrls } from '../config.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import { BadInputError } from '../errors.js';
import type { Services } from '../outsideServices.js';
import { openScheduler } from './schedulers/index.js';
import { SCHEDULER_TOOLS, type Scheduler, type SchedulerAccount, type SchedulerAuthError } from './schedulers/scheduler.js';

/** Where an owner connects the scheduling tool; refusals that need one name it. */
export function schedulerPagePath(workspaceId: string): string {
  return `/w/${workspaceId}/repurpose/scheduler`;
}

export function noScheduler(workspaceId: string): BadInputError {
  return new BadInputError(`no scheduling tool connected: an owner connects one at ${schedulerPagePath(workspaceId)}`);
}

/** The dashboard form: a blank key keeps the stored one (same tool only); a blank base URL is the tool's configured API. */
export const connectionForm = z.object({
  tool: z.enum(SCHEDULER_TOOLS, 'must be postiz, buffer or typefully'),
  apiKey: z.string().trim().max(500).optional().default(''),
  baseUrl: z
    .string()
    .trim()
    .max(500)
    .optional()
    .default('')
    .refine((value) => value === '' || /^https:\/\/[^\s/]+(\/\S*)?$/i.test(value), 'must be an https URL such as https://postiz.example.com/api/public/v1'),
  accountId: z.string().trim().max(200).optional().default(''),
});
export type ConnectionForm = z.output<typeof connectionForm>;

/** What the dashboard shows: never the key. */
export interface ConnectionView {
  tool: SchedulerTool;
  baseUrl: string;
  accountId: string | null;
  checkedAt: number | null;
  lastError: string | null;
}

export async function readConnectionView(db: Kysely<Database>, workspaceId: string): Promise<ConnectionView | undefined> {
  const row = await db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  return { tool: row.tool, baseUrl: row.base_url, accountId: row.account_id, checkedAt: row.checked_at === null ? null : Number(row.checked_at), lastError: row.last_error };
}

/** A base URL only Postiz takes from the owner (it can be self-hosted); Buffer and Typefully are the configured APIs. */
function baseUrlFor(form: ConnectionForm, urls: SchedulerUrls): string {
  if (form.tool !== 'postiz') return urls[form.tool];
  return (form.baseUrl === '' ? urls.postiz : form.baseUrl).replace(/\/+$/, '');
}

export async function saveConnection(db: Kysely<Database>, clock: Clock, credentials: CredentialSealer, urls: SchedulerUrls, workspaceId: string, form: ConnectionForm): Promise<void> {
  const existing = await db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  const apiKey = form.apiKey !== '' ? credentials.seal(form.apiKey) : existing?.tool === form.tool ? existing.api_key : undefined;
  if (apiKey === undefined) throw BadInputError.field('apiKey', `is required to connect ${form.tool}`);
  const now = clock.now();
  const values = {
    tool: form.tool,
    base_url: baseUrlFor(form, urls),
    api_key: apiKey,
    account_id: form.tool === 'postiz' || form.accountId === '' ? null : form.accountId,
    checked_at: null,
    last_error: null,
    updated_at: now,
  };
  await db
    .insertInto('scheduler_connections')
    .values({ workspace_id: workspaceId, ...values, created_at: now })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
    .execute();
}

export async function removeConnection(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.deleteFrom('scheduler_connections').where('workspace_id', '=', workspaceId).execute();
}

/** Remembers the last check of the connection (a channel list, a push): its time and what went wrong, if anything. */
export async function recordCheck(db: Kysely<Database>, clock: Clock, workspaceId: string, error: string | null): Promise<void> {
  await db.updateTable('scheduler_connections').set({ checked_at: clock.now(), last_error: error }).where('workspace_id', '=', workspaceId).execute();
}

/**
 * The scheduling tool refused the stored key: remembered as the connection's last check, and recorded once as
 * `connection.broken` for this key (a key saved again is a new connection that can break anew).
 */
export async function recordRefusal(db: Kysely<Database>, clock: Clock, workspaceId: string, error: SchedulerAuthError): Promise<void> {
  await inTransaction(db, async (trx) => {
    await recordCheck(trx, clock, workspaceId, error.message);
    const row = await trx.selectFrom('scheduler_connections').select(['tool', 'api_key']).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (row === undefined) return;
    await noteBrokenConnection(trx, clock, workspaceId, {
      connection: 'scheduler',
      provider: error.provider ?? row.tool,
      credential: `${row.tool}:${row.api_key}`,
      error: error.message,
      reconnectAt: schedulerPagePath(workspaceId),
    });
  });
}

export type SchedulerServices = Pick<Services, 'outbound' | 'credentials' | 'schedulers'>;

/** The connection's account with its key opened: only for the moment of a call. */
export async function schedulerAccount(db: Kysely<Database>, services: Pick<Services, 'credentials' | 'schedulers'>, workspaceId: string): Promise<SchedulerAccount | undefined> {
  const row = await db.selectFrom('scheduler_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  const baseUrl = row.tool === 'postiz' ? row.base_url : services.schedulers.urls[row.tool];
  return { tool: row.tool, baseUrl, apiKey: services.credentials.open(row.api_key), accountId: row.account_id };
}

/** The workspace's scheduling tool, or 400 naming the page where an owner connects one. */
export async function schedulerFor(db: Kysely<Database>, services: SchedulerServices, clock: Clock, workspaceId: string): Promise<Scheduler> {
  const account = await schedulerAccount(db, services, workspaceId);
  if (account === undefined) throw noScheduler(workspaceId);
  return openScheduler(account, { outbound: services.outbound, limits: services.schedulers.limits, clock });
}
