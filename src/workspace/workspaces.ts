import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { DEFAULT_PLAN, type PlanName } from '../plans.js';
import { DEFAULT_LOCALE } from '../brand/locales.js';

const TRIAL_DAYS = 14;
const DAY_MS = 86_400_000;

/** Normalises a website URL: http(s) only, no credentials, no query or fragment, no trailing slash. Throws with the rule broken. */
export function normaliseWebsiteUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be an absolute http(s) URL such as https://example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must use http or https');
  if (url.username !== '' || url.password !== '') throw new Error('must not contain a user name or password');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

export interface NewWorkspace {
  name: string;
  websiteUrl: string;
  plan?: PlanName;
}

/** A workspace comes with its brand record (named after it) and a trial billing record, in the caller's transaction or one of its own. */
export async function createWorkspace(db: Kysely<Database>, clock: Clock, input: NewWorkspace): Promise<string> {
  const id = newId('ws');
  const now = clock.now();
  const websiteUrl = normaliseWebsiteUrl(input.websiteUrl);
  const inTransaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
  await inTransaction(async (trx) => {
    await trx.insertInto('workspaces').values({ id, name: input.name, website_url: websiteUrl, plan: input.plan ?? DEFAULT_PLAN, created_at: now }).execute();
    await trx.insertInto('analytics_sites').values({ workspace_id: id, site_id: newId('site'), crawler_source: 'site_hook', created_at: now }).execute();
    await trx
      .insertInto('brands')
      .values({
        workspace_id: id,
        name: input.name,
        industry: null,
        sub_industry: null,
        product_description: null,
        authors: '[]',
        style_reference_urls: '[]',
        brand_aliases: '[]',
        brand_exclusions: '[]',
        tone: null,
        primary_color: null,
        secondary_color: null,
        default_locale: DEFAULT_LOCALE,
        flexible_scheduling: 0,
        local_business: 0,
        service_area: null,
        reviewed_at: null,
        mention_search_requested_at: null,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto('billing_accounts')
      .values({
        workspace_id: id,
        status: 'trial',
        cycle: 'monthly',
        currency: 'USD',
        trial_ends_at: now + TRIAL_DAYS * DAY_MS,
        next_charge_at: null,
        next_charge_cents: null,
        updated_at: now,
      })
      .execute();
  });
  return id;
}

export async function workspaceExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function countWorkspaces(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises writers that check a workspace-wide count before adding (seats, competitors): a no-op update takes
 * the workspace row's lock on PostgreSQL (SQLite already runs one write transaction at a time). Call it first
 * inside the transaction.
 */
export async function lockWorkspace(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.updateTable('workspaces').set((eb) => ({ plan: eb.ref('plan') })).where('id', '=', workspaceId).execute();
}
