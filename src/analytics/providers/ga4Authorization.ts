import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { randomToken, sha256Hex } from '../../secrets.js';
import { connectSiteAnalytics, type SiteAnalyticsServices } from './connections.js';
import { exchangeGa4Code, ga4CallbackUrl, listGa4Properties, type Ga4Property } from './ga4Grant.js';
import { requireGoogle } from './requireGoogle.js';
import { WebAnalyticsError } from './provider.js';

/** The owner has this long to finish Google's consent screen. */
export const GA4_STATE_TTL_MS = 10 * 60_000;
/** And this long, after it, to pick the property. */
export const GA4_CHOICE_TTL_MS = 60 * 60_000;

// The stored hash covers the user too: only the owner who started the flow, in their own session, can finish it.
const stateHash = (userId: string, state: string) => sha256Hex(`${userId}:${state}`);

/**
 * Starts connecting Google Analytics: a random state for Google's redirect, stored hashed with its expiry, replacing
 * any authorization in progress. The connection in place, if any, keeps working until a property is picked.
 */
export async function beginGa4Authorization(db: Kysely<Database>, clock: Clock, workspaceId: string, userId: string): Promise<string> {
  // Expired authorizations of every workspace are dropped whenever one starts, so unused grants do not pile up.
  await db.deleteFrom('ga4_authorizations').where('expires_at', '<=', clock.now()).execute();
  const state = randomToken();
  const pending = { user_id: userId, state_hash: stateHash(userId, state), expires_at: clock.now() + GA4_STATE_TTL_MS, refresh_token: null, properties: null, properties_error: null };
  await db
    .insertInto('ga4_authorizations')
    .values({ workspace_id: workspaceId, ...pending })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet(pending))
    .execute();
  return state;
}

/** The workspace whose authorization this user started with this state, used up at once; undefined when unknown, expired or used. */
export async function takeGa4State(db: Kysely<Database>, clock: Clock, userId: string, state: string): Promise<string | undefined> {
  const hash = stateHash(userId, state);
  const taken = await db
    .updateTable('ga4_authorizations')
    .set({ state_hash: null })
    .where('state_hash', '=', hash)
    .where('user_id', '=', userId)
    .where('expires_at', '>', clock.now())
    .returning('workspace_id')
    .executeTakeFirst();
  return taken?.workspace_id;
}

/**
 * Google's callback turned into a grant waiting for its property: the code exchanged for a refresh token (stored
 * sealed), and the properties the account can read listed. A listing that fails is kept as its message, and the owner
 * types the property id instead.
 */
export async function completeGa4Authorization(
  db: Kysely<Database>,
  clock: Clock,
  services: SiteAnalyticsServices,
  publicUrl: string,
  workspaceId: string,
  callback: URLSearchParams,
): Promise<void> {
  const google = requireGoogle(services.googleAnalytics);
  const { accessToken, refreshToken } = await exchangeGa4Code(google, callback, ga4CallbackUrl(publicUrl));
  let properties: Ga4Property[] | null = null;
  let propertiesError: string | null = null;
  try {
    properties = await listGa4Properties(google, services.outbound, accessToken);
  } catch (error) {
    if (!(error instanceof WebAnalyticsError)) throw error;
    propertiesError = error.message;
  }
  await db
    .updateTable('ga4_authorizations')
    .set({
      refresh_token: services.credentials.seal(refreshToken),
      properties: properties === null ? null : JSON.stringify(properties),
      properties_error: propertiesError,
      expires_at: clock.now() + GA4_CHOICE_TTL_MS,
    })
    .where('workspace_id', '=', workspaceId)
    .execute();
}

const propertiesSchema = z.array(z.object({ propertyId: z.string(), displayName: z.string(), accountName: z.string() }));

export interface Ga4Grant {
  refreshToken: string;
  /** Null when they could not be listed; `propertiesError` says why. */
  properties: Ga4Property[] | null;
  propertiesError: string | null;
}

/** The grant this user obtained for the workspace and has not used yet; undefined when none, expired, or another user's. */
export async function readGa4Grant(db: Kysely<Database>, clock: Clock, services: Pick<SiteAnalyticsServices, 'credentials'>, workspaceId: string, userId: string): Promise<Ga4Grant | undefined> {
  const row = await db
    .selectFrom('ga4_authorizations')
    .select(['refresh_token', 'properties', 'properties_error'])
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', clock.now())
    .executeTakeFirst();
  if (row?.refresh_token == null) return undefined;
  return {
    refreshToken: services.credentials.open(row.refresh_token),
    properties: row.properties === null ? null : propertiesSchema.parse(JSON.parse(row.properties)),
    propertiesError: row.properties_error,
  };
}

/**
 * Connects the property the owner picked with the grant: Google answers a day's report for it first (no access, or a
 * property id that is not one, fails here), then the connection replaces the one before and the grant is used up.
 */
export async function connectGa4Property(
  db: Kysely<Database>,
  clock: Clock,
  services: SiteAnalyticsServices,
  workspaceId: string,
  grant: Ga4Grant,
  propertyId: string,
): Promise<void> {
  const propertyName = grant.properties?.find((property) => property.propertyId === propertyId)?.displayName ?? '';
  await connectSiteAnalytics(db, clock, services, workspaceId, { provider: 'ga4', propertyId, propertyName, refreshToken: grant.refreshToken }, (trx) =>
    trx.deleteFrom('ga4_authorizations').where('workspace_id', '=', workspaceId).execute(),
  );
}
