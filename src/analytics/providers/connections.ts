import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { noteBrokenConnection } from '../../changes/connections.js';
import { inTransaction } from '../../changes/record.js';
import type { Clock } from '../../clock.js';
import type { Services } from '../../outsideServices.js';
import { GOOGLE_ANALYTICS } from '../../integrations/google/provider.js';
import { PLAUSIBLE } from '../../integrations/plausible/provider.js';
import { UMAMI } from '../../integrations/umami/provider.js';
import type { SiteAnalyticsConnection } from './connection.js';
import { AnalyticsNotConfiguredError, PROVIDER_LABELS, type AnalyticsAuthError, type DayRange, type WebAnalyticsProvider, type WebAnalyticsProviderName } from './provider.js';
import { requireGoogle } from './requireGoogle.js';

/** What building a provider needs of the services: where requests go, Google's client, and the sealer. */
export type SiteAnalyticsServices = Pick<Services, 'outbound' | 'googleAnalytics' | 'credentials'>;

/** The `settings` column: the connection without its secret, which is sealed in `credential`. */
const storedSettingsSchema = z.union([
  z.object({ provider: z.literal('plausible'), baseUrl: z.string(), siteId: z.string() }),
  z.object({ provider: z.literal('umami'), kind: z.literal('self-hosted'), baseUrl: z.string(), username: z.string(), websiteId: z.string() }),
  z.object({ provider: z.literal('umami'), kind: z.literal('cloud'), baseUrl: z.string(), websiteId: z.string() }),
  z.object({ provider: z.literal('ga4'), propertyId: z.string(), propertyName: z.string() }),
]);
type StoredSettings = z.infer<typeof storedSettingsSchema>;

function withoutSecret(connection: SiteAnalyticsConnection): { settings: StoredSettings; secret: string } {
  switch (connection.provider) {
    case 'plausible': {
      const { apiKey, ...settings } = connection;
      return { settings, secret: apiKey };
    }
    case 'umami': {
      if (connection.kind === 'self-hosted') {
        const { password, ...settings } = connection;
        return { settings, secret: password };
      }
      const { apiKey, ...settings } = connection;
      return { settings, secret: apiKey };
    }
    case 'ga4': {
      const { refreshToken, ...settings } = connection;
      return { settings, secret: refreshToken };
    }
  }
}

function withSecret(settings: StoredSettings, secret: string): SiteAnalyticsConnection {
  switch (settings.provider) {
    case 'plausible':
      return { ...settings, apiKey: secret };
    case 'umami':
      return settings.kind === 'self-hosted' ? { ...settings, password: secret } : { ...settings, apiKey: secret };
    case 'ga4':
      return { ...settings, refreshToken: secret };
  }
}

/** The settings column read back, with the provider beside it. */
function parseSettings(row: { provider: WebAnalyticsProviderName; settings: string }): StoredSettings {
  return storedSettingsSchema.parse({ ...(JSON.parse(row.settings) as object), provider: row.provider });
}

async function loadConnection(db: Kysely<Database>, services: Pick<Services, 'credentials'>, workspaceId: string): Promise<SiteAnalyticsConnection | undefined> {
  const row = await db.selectFrom('site_analytics_connections').select(['provider', 'settings', 'credential']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row === undefined ? undefined : withSecret(parseSettings(row), services.credentials.open(row.credential));
}

/** The site's host, which providers count referrals from as direct (navigation inside the site). */
async function siteHostOf(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const workspace = await db.selectFrom('workspaces').select('website_url').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return new URL(workspace.website_url).hostname;
}

/** The adapter for a connection, opened by its provider's declaration; requests go through the service's SafeFetcher. */
function providerFor(connection: SiteAnalyticsConnection, services: SiteAnalyticsServices, siteHost: string): WebAnalyticsProvider {
  const deps = { outbound: services.outbound, siteHost, google: () => requireGoogle(services.googleAnalytics) };
  // Stored connections name Google Analytics `ga4`, its declaration `googleAnalytics`: each name is opened by its own.
  switch (connection.provider) {
    case 'plausible':
      return PLAUSIBLE.create(connection, deps);
    case 'umami':
      return UMAMI.create(connection, deps);
    case 'ga4':
      return GOOGLE_ANALYTICS.create(connection, deps);
  }
}

/**
 * The provider the workspace connected, ready to read. Throws AnalyticsNotConfiguredError (provider null) when none is
 * connected, or naming the operator's settings a Google Analytics connection needs when they are gone.
 */
export async function siteAnalyticsProvider(db: Kysely<Database>, services: SiteAnalyticsServices, workspaceId: string): Promise<WebAnalyticsProvider> {
  const connection = await loadConnection(db, services, workspaceId);
  if (connection === undefined) throw new AnalyticsNotConfiguredError(null, 'connection', 'connect Plausible, Umami or Google Analytics on the Settings page');
  return providerFor(connection, services, await siteHostOf(db, workspaceId));
}

export interface SiteAnalyticsConnectionStatus {
  provider: WebAnalyticsProviderName;
  connectedAt: number;
  /** The provider's last failure, until it answers again; null when the last read succeeded. */
  lastError: string | null;
  /** What is read: the Plausible site id, the Umami website id or the GA4 property id. */
  site: string;
  /** The GA4 property's name; null for the others. */
  siteName: string | null;
  /** The Plausible or Umami server asked; null for GA4. */
  baseUrl: string | null;
}

export async function readSiteAnalyticsConnection(db: Kysely<Database>, workspaceId: string): Promise<SiteAnalyticsConnectionStatus | undefined> {
  const row = await db.selectFrom('site_analytics_connections').select(['provider', 'settings', 'connected_at', 'last_error']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  const settings = parseSettings(row);
  const status = { provider: settings.provider, connectedAt: row.connected_at, lastError: row.last_error };
  if (settings.provider === 'ga4') return { ...status, site: settings.propertyId, siteName: settings.propertyName === '' ? null : settings.propertyName, baseUrl: null };
  return { ...status, site: settings.provider === 'plausible' ? settings.siteId : settings.websiteId, siteName: null, baseUrl: settings.baseUrl };
}

/**
 * Keeps a provider's failure on the connection for the dashboard (its message says what to do), or null once the
 * provider answered again. Call it with the database itself, not an operation's transaction that the failure rolls back.
 */
export async function noteSiteAnalyticsError(db: Kysely<Database>, workspaceId: string, message: string | null): Promise<void> {
  await db.updateTable('site_analytics_connections').set({ last_error: message }).where('workspace_id', '=', workspaceId).execute();
}

/**
 * The provider refused the stored credentials: kept as the connection's last error like any failure, and recorded
 * once as `connection.broken` for this connection (a reconnection saves a new connected_at, so it can break anew).
 * Call it with the database itself, as noteSiteAnalyticsError.
 */
export async function noteSiteAnalyticsRefused(db: Kysely<Database>, clock: Clock, workspaceId: string, error: AnalyticsAuthError): Promise<void> {
  await inTransaction(db, async (trx) => {
    await noteSiteAnalyticsError(trx, workspaceId, error.message);
    const row = await trx.selectFrom('site_analytics_connections').select(['provider', 'connected_at']).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (row === undefined) return;
    await noteBrokenConnection(trx, clock, workspaceId, {
      connection: 'site_analytics',
      provider: PROVIDER_LABELS[error.provider],
      credential: `${row.provider}:${row.connected_at}`,
      error: error.message,
      reconnectAt: `/w/${workspaceId}/settings`,
    });
  });
}

const DAY_MS = 86_400_000;

/** Yesterday, UTC: a whole day every provider has finished counting. */
function yesterday(clock: Clock): DayRange {
  const day = new Date(clock.now() - DAY_MS).toISOString().slice(0, 10);
  return { from: day, to: day };
}

/**
 * Connects a provider, replacing the one connected before: the provider first answers a day's traffic with these
 * settings (wrong credentials or ids fail here, as the provider's WebAnalyticsError, and nothing is stored), then the
 * connection is stored with its secret sealed. `alsoInTransaction` runs in the same transaction as the save.
 */
export async function connectSiteAnalytics(
  db: Kysely<Database>,
  clock: Clock,
  services: SiteAnalyticsServices,
  workspaceId: string,
  connection: SiteAnalyticsConnection,
  alsoInTransaction?: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<void> {
  await providerFor(connection, services, await siteHostOf(db, workspaceId)).traffic(yesterday(clock));
  const { settings, secret } = withoutSecret(connection);
  const { provider, ...rest } = settings;
  const values = { provider, settings: JSON.stringify(rest), credential: services.credentials.seal(secret), connected_at: clock.now(), last_error: null };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('site_analytics_connections')
      .values({ workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
      .execute();
    await alsoInTransaction?.(trx);
  });
}

/** Forgets the connection and any Google Analytics authorization in progress (revoking a grant is done at the provider). */
export async function disconnectSiteAnalytics(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('site_analytics_connections').where('workspace_id', '=', workspaceId).execute();
    await trx.deleteFrom('ga4_authorizations').where('workspace_id', '=', workspaceId).execute();
  });
}
