import type { Kysely } from 'kysely';
import type { CdnConnectionsTable, Database } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { CredentialSealer } from '../../credentials/sealed.js';
import { BadInputError, ServiceError } from '../../errors.js';
import { enqueueJob, pendingJobId } from '../../jobs/queue.js';
import type { JobHandler } from '../../jobs/worker.js';
import type { Services } from '../../outsideServices.js';
import { DEFAULT_ZONE_LIMITS, HOUR_MS, oldestReadableHour, planBackfill, type TrafficWindow, type ZoneLimits } from './backfill.js';
import type { CloudflareZone, CrawlerHour } from '../../integrations/cloudflare/cdn.js';
import { clearZone, markGrantRefused, NOT_CONNECTED, usableGrant, type CdnService } from './connection.js';
import { CloudflareAuthError, CloudflareError } from './errors.js';

export interface CdnStatus {
  /** False once Cloudflare refused the stored grant for good: the owner connects again (lastError says why). */
  connected: boolean;
  via: 'oauth' | 'api_token';
  zone: { id: string; name: string } | null;
  lastSyncAt: number | null;
  lastError: string | null;
  /** The backfill planned when the zone was selected, in windows of the zone's widest query; null without a zone. */
  backfill: { windowsDone: number; windowsTotal: number } | null;
}

/** Sums of stored hours over a window, the most visits first. */
export interface CdnCrawlerVisits {
  total: number;
  byCrawler: Array<{ crawler: string; operator: string | null; visits: number }>;
  byPage: Array<{ path: string; visits: number }>;
}

/** The most pages cdnCrawlerVisits answers. */
const TOP_PAGES = 20;
/**
 * Each poll reads the last stored hours again: Cloudflare's adaptive datasets take some minutes to hold an hour
 * whole, and stored hours are replaced, never added to, so a second read only completes them.
 */
const REFETCH_MS = 2 * HOUR_MS;
/** Polls run this long after each hour ends, when Cloudflare has most of that hour. */
const POLL_OFFSET_MS = 10 * 60_000;
/** A backfill of 31 daily windows may meet Cloudflare's query budget a few times; each attempt resumes where the last stopped. */
const SYNC_MAX_ATTEMPTS = 8;
/** A path longer than this is cut: it would not fit PostgreSQL's index entries, and no report shows it whole. */
const MAX_PATH_LENGTH = 1000;
/** Rows per insert statement: far below either database's limit on bound parameters (7 a row). */
const INSERT_CHUNK = 500;
/** Zone changes are people's doing: a sync that saw more than this many while it ran stops, and the next poll goes on. */
const MAX_SELECTION_CHANGES = 3;

/** The next poll: shortly after the next hour ends. */
function nextPollAt(now: number): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS + POLL_OFFSET_MS;
}

function backfillProgress(row: Pick<CdnConnectionsTable, 'backfill_since' | 'backfill_until' | 'window_ms' | 'synced_until'>): CdnStatus['backfill'] {
  const { backfill_since: since, backfill_until: until, window_ms: width } = row;
  if (since === null || until === null || width === null) return null;
  const windowsTotal = Math.ceil((until - since) / width);
  const reached = row.synced_until === null ? since : Math.min(Math.max(row.synced_until, since), until);
  return { windowsDone: Math.min(windowsTotal, Math.ceil((reached - since) / width)), windowsTotal };
}

/** The workspace's Cloudflare connection as the sources screen shows it; undefined when it never connected. */
export async function readCdnStatus(db: Kysely<Database>, workspaceId: string): Promise<CdnStatus | undefined> {
  const row = await db.selectFrom('cdn_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    connected: row.access_token !== null,
    via: row.via,
    zone: row.zone_id === null ? null : { id: row.zone_id, name: row.zone_name ?? row.zone_id },
    lastSyncAt: row.last_sync_at,
    lastError: row.last_error,
    backfill: backfillProgress(row),
  };
}

/**
 * Queues a sync of the selected zone unless the workspace has no zone selected, is not connected, or has one queued
 * or running: it backfills what the selection planned and was not stored yet, then reads up to the last whole hour.
 * Answers the job id, or undefined when none was queued.
 */
export async function queueCdnBackfill(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<string | undefined> {
  const ready = await db
    .selectFrom('cdn_connections')
    .select('zone_id')
    .where('workspace_id', '=', workspaceId)
    .where('zone_id', 'is not', null)
    .where('access_token', 'is not', null)
    .executeTakeFirst();
  if (ready === undefined) return undefined;
  const pending = await pendingJobId(db, workspaceId, 'cdn_sync');
  if (pending !== undefined) return undefined;
  return enqueueJob(db, clock, { workspaceId, kind: 'cdn_sync', subjectId: ready.zone_id ?? undefined, maxAttempts: SYNC_MAX_ATTEMPTS });
}

/** AI-crawler requests the zone counted in the window's stored hours: per crawler, and the top pages. */
export async function cdnCrawlerVisits(db: Kysely<Database>, workspaceId: string, window: { since: number; until: number }): Promise<CdnCrawlerVisits> {
  const inWindow = db.selectFrom('cdn_crawler_hours').where('workspace_id', '=', workspaceId).where('hour', '>=', window.since).where('hour', '<', window.until);
  const [crawlers, pages] = await Promise.all([
    inWindow
      .select(['crawler', 'operator', (eb) => eb.fn.sum<number | string>('requests').as('visits')])
      .groupBy(['crawler', 'operator'])
      .orderBy('visits', 'desc')
      .orderBy('crawler')
      .execute(),
    inWindow
      .select(['path', (eb) => eb.fn.sum<number | string>('requests').as('visits')])
      .groupBy('path')
      .orderBy('visits', 'desc')
      .orderBy('path')
      .limit(TOP_PAGES)
      .execute(),
  ]);
  const byCrawler = crawlers.map((row) => ({ crawler: row.crawler, operator: row.operator, visits: Number(row.visits) }));
  return {
    total: byCrawler.reduce((sum, row) => sum + row.visits, 0),
    byCrawler,
    byPage: pages.map((row) => ({ path: row.path, visits: Number(row.visits) })),
  };
}

/** A Cloudflare failure during a request, as the caller should read it. */
function requestError(error: unknown): unknown {
  if (error instanceof CloudflareAuthError) return new BadInputError(`Cloudflare refused this workspace's grant: ${error.message}`);
  if (error instanceof CloudflareError) return new ServiceError(503, error.message);
  return error;
}

/** The grant's Bearer token for a request, refreshed when needed; the caller's `whenMissing` when not connected. */
async function requestToken(db: Kysely<Database>, clock: Clock, cdn: CdnService, sealer: CredentialSealer, workspaceId: string, whenMissing: () => Error): Promise<string> {
  let grant;
  try {
    grant = await usableGrant(db, clock, cdn, sealer, workspaceId);
  } catch (error) {
    throw requestError(error);
  }
  if (grant === undefined) throw whenMissing();
  return grant.token;
}

export interface ListedZone {
  id: string;
  name: string;
  plan: string | null;
  status: string;
  selected: boolean;
}

/** The zones the workspace's grant can read, the selected one marked. */
export async function listCdnZones(
  db: Kysely<Database>,
  clock: Clock,
  services: Pick<Services, 'cdn' | 'credentials'>,
  workspaceId: string,
): Promise<{ zones: ListedZone[]; selectedZoneId: string | null }> {
  const token = await requestToken(db, clock, services.cdn, services.credentials, workspaceId, () => new BadInputError(NOT_CONNECTED));
  const zones = await services.cdn.client.listZones(token).catch((error: unknown) => {
    throw requestError(error);
  });
  const selected = await db.selectFrom('cdn_connections').select('zone_id').where('workspace_id', '=', workspaceId).executeTakeFirst();
  const selectedZoneId = selected?.zone_id ?? null;
  return { zones: zones.map((zone) => ({ ...zone, selected: zone.id === selectedZoneId })), selectedZoneId };
}

/** The 404 of a zone the workspace's grant does not read; the same words whether the zone exists elsewhere or not at all. */
function unknownZone(zoneId: string, connected: boolean): ServiceError {
  const why = connected ? 'call list_cdn_zones for the zones it can read' : NOT_CONNECTED;
  return new ServiceError(404, `zoneId: Cloudflare zone ${zoneId} is not readable by this workspace's Cloudflare grant: ${why}`);
}

/** The zone among those the token reads, and its limits; 404 when it reads no such zone. */
async function readableZone(cdn: CdnService, token: string, zoneId: string): Promise<{ zone: CloudflareZone; limits: ZoneLimits }> {
  try {
    const zone = (await cdn.client.listZones(token)).find((candidate) => candidate.id === zoneId);
    if (zone === undefined) throw unknownZone(zoneId, true);
    return { zone, limits: await cdn.client.zoneLimits(token, zoneId) };
  } catch (error) {
    throw requestError(error);
  }
}

export interface ZoneSelection {
  zone: { id: string; name: string };
  /** False when the zone was already the selected one: its stored hours and sync progress are kept. */
  changed: boolean;
  backfill: { since: number; until: number; windowsTotal: number; windowsDone: number };
  /** The sync queued now; null when one was already queued or running (it reads the new zone). */
  jobId: string | null;
}

/**
 * Selects the zone the grant reads AI-crawler traffic from and queues its first sync. The zone's limits size the
 * backfill (planBackfill: its retention, at least 31 days, in windows of its widest query). Another zone than before
 * drops the hours stored from the old one; the same zone again keeps them and the progress.
 */
export async function selectCdnZone(db: Kysely<Database>, clock: Clock, services: Pick<Services, 'cdn' | 'credentials'>, workspaceId: string, zoneId: string): Promise<ZoneSelection> {
  const token = await requestToken(db, clock, services.cdn, services.credentials, workspaceId, () => unknownZone(zoneId, false));
  const { zone, limits } = await readableZone(services.cdn, token, zoneId);
  const now = clock.now();
  const plan = planBackfill(limits, now);
  const since = plan[0]?.since ?? Math.floor(now / HOUR_MS) * HOUR_MS;
  const until = plan.at(-1)?.until ?? since;
  const windowMs = plan.length > 0 ? plan[0]!.until - plan[0]!.since : HOUR_MS;
  return db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('cdn_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    const changed = previous.zone_id !== zoneId;
    const limitValues = { zone_name: zone.name, retention_seconds: limits.retentionSeconds, max_duration_seconds: limits.maxDurationSeconds, max_page_size: limits.maxPageSize };
    if (changed) {
      await clearZone(trx, workspaceId);
      await trx
        .updateTable('cdn_connections')
        .set({
          ...limitValues,
          zone_id: zoneId,
          zone_selected_at: now,
          backfill_since: since,
          backfill_until: until,
          window_ms: windowMs,
          synced_until: null,
          next_poll_at: nextPollAt(now),
          last_error: null,
        })
        .where('workspace_id', '=', workspaceId)
        .execute();
    } else {
      await trx.updateTable('cdn_connections').set(limitValues).where('workspace_id', '=', workspaceId).execute();
    }
    const jobId = await queueCdnBackfill(trx, clock, workspaceId);
    const stored = await trx.selectFrom('cdn_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    const progress = backfillProgress(stored) ?? { windowsDone: 0, windowsTotal: 0 };
    return {
      zone: { id: zoneId, name: zone.name },
      changed,
      backfill: { since: stored.backfill_since ?? since, until: stored.backfill_until ?? until, ...progress },
      jobId: jobId ?? null,
    };
  });
}

/**
 * The polling sweep: queues a sync for every workspace with a zone selected whose next poll has come, and moves that
 * poll on by an hour first, so that a failing sync is not queued again before then. The move is conditional, so two
 * instances never both queue one.
 */
export async function queueDueCdnPolls(db: Kysely<Database>, clock: Clock): Promise<number> {
  const now = clock.now();
  const due = await db
    .selectFrom('cdn_connections')
    .select('workspace_id')
    .where('zone_id', 'is not', null)
    .where('access_token', 'is not', null)
    .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', now)]))
    .execute();
  let queued = 0;
  for (const { workspace_id: workspaceId } of due) {
    const moved = await db
      .updateTable('cdn_connections')
      .set({ next_poll_at: nextPollAt(now) })
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', now)]))
      .executeTakeFirst();
    if (moved.numUpdatedRows === 1n && (await queueCdnBackfill(db, clock, workspaceId)) !== undefined) queued++;
  }
  return queued;
}

/** The zone selection a sync reads for; its writes land only while the same selection holds. */
interface Selection {
  zoneId: string;
  zoneName: string;
  selectedAt: number;
  pageSize: number;
  windows: TrafficWindow[];
}

/**
 * What the sync reads now: the rest of the backfill from where it stopped (the retention edge, if it moved past), then
 * every whole hour up to now, the last ones read again (REFETCH_MS), in windows of the zone's widest query.
 */
function windowsToRead(row: CdnConnectionsTable, now: number): TrafficWindow[] {
  const width = row.window_ms ?? HOUR_MS;
  const until = Math.floor(now / HOUR_MS) * HOUR_MS;
  const edge = oldestReadableHour(row.retention_seconds ?? DEFAULT_ZONE_LIMITS.retentionSeconds, now);
  const backfillDone = row.synced_until !== null && row.backfill_until !== null && row.synced_until >= row.backfill_until;
  const resumeAt = row.synced_until ?? row.backfill_since ?? until;
  const start = Math.max(backfillDone ? Math.min(resumeAt, until) - REFETCH_MS : resumeAt, edge);
  const windows: TrafficWindow[] = [];
  for (let since = start; since < until; since += width) windows.push({ since, until: Math.min(since + width, until) });
  return windows;
}

async function currentSelection(db: Kysely<Database>, workspaceId: string, now: number): Promise<Selection | undefined> {
  const row = await db.selectFrom('cdn_connections').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (row === undefined || row.zone_id === null || row.zone_selected_at === null || row.access_token === null) return undefined;
  return {
    zoneId: row.zone_id,
    zoneName: row.zone_name ?? row.zone_id,
    selectedAt: row.zone_selected_at,
    pageSize: row.max_page_size ?? DEFAULT_ZONE_LIMITS.maxPageSize,
    windows: windowsToRead(row, now),
  };
}

interface StoredHour {
  hour: number;
  crawler: string;
  path: string;
  operator: string | null;
  category: string;
  requests: number;
}

/** One row per hour, crawler and path: user agents of one crawler (GPTBot/1.1 and 1.2) and over-long paths cut alike add up. */
function hoursOf(rows: readonly CrawlerHour[]): StoredHour[] {
  const merged = new Map<string, StoredHour>();
  for (const row of rows) {
    const path = row.path.slice(0, MAX_PATH_LENGTH);
    const key = `${row.hour}\n${row.crawler}\n${path}`;
    const stored = merged.get(key);
    if (stored === undefined) merged.set(key, { hour: row.hour, crawler: row.crawler, path, operator: row.operator, category: row.category, requests: row.requests });
    else stored.requests += row.requests;
  }
  return [...merged.values()];
}

/**
 * A window's hours replace what was stored for them (an upsert: reading a window again never counts twice), and the
 * sync's progress moves on, only while the selection the window was read for still holds. False when it changed.
 */
async function storeWindow(db: Kysely<Database>, workspaceId: string, selection: Selection, window: TrafficWindow, rows: readonly CrawlerHour[], now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('cdn_connections')
      .select('synced_until')
      .where('workspace_id', '=', workspaceId)
      .where('zone_id', '=', selection.zoneId)
      .where('zone_selected_at', '=', selection.selectedAt)
      .executeTakeFirst();
    if (current === undefined) return false;
    const hours = hoursOf(rows);
    for (let i = 0; i < hours.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('cdn_crawler_hours')
        .values(hours.slice(i, i + INSERT_CHUNK).map((hour) => ({ workspace_id: workspaceId, ...hour })))
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'hour', 'crawler', 'path']).doUpdateSet((eb) => ({
            requests: eb.ref('excluded.requests'),
            operator: eb.ref('excluded.operator'),
            category: eb.ref('excluded.category'),
          })),
        )
        .execute();
    }
    await trx
      .updateTable('cdn_connections')
      .set({ synced_until: Math.max(current.synced_until ?? window.until, window.until), last_sync_at: now, last_error: null })
      .where('workspace_id', '=', workspaceId)
      .execute();
    return true;
  });
}

const isoHour = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 13) + ':00Z';

/**
 * cdn_sync: reads the selected zone's AI-crawler traffic per hour, user agent and path from Cloudflare's GraphQL API,
 * window by window, and stores each window before reading the next, so that another attempt resumes after the last
 * window stored. The first sync of a zone is its backfill; later ones (the hourly poll) read the hours since. Cloudflare's
 * rate limit is waited out through the worker's retry (its Retry-After); a grant Cloudflare refuses for good is
 * forgotten, with the reason kept for the owner.
 */
export const cdnSyncJob: JobHandler = {
  async run(job, { db, clock, services, progress }) {
    const summary = { windows: 0, rows: 0, incompleteHours: 0 };
    for (let changes = 0; changes <= MAX_SELECTION_CHANGES; changes++) {
      const selection = await currentSelection(db, job.workspaceId, clock.now());
      if (selection === undefined) return { skipped: 'no Cloudflare zone is selected, or the workspace is not connected', ...summary };
      let changed = false;
      for (const [index, window] of selection.windows.entries()) {
        let stored: string | undefined;
        try {
          const grant = await usableGrant(db, clock, services.cdn, services.credentials, job.workspaceId);
          if (grant === undefined) return { skipped: 'the workspace is not connected to Cloudflare any more', ...summary };
          stored = grant.stored;
          await progress(`reading ${selection.zoneName}, ${isoHour(window.since)} to ${isoHour(window.until)} (window ${index + 1} of ${selection.windows.length})`);
          const traffic = await services.cdn.client.crawlerTraffic(grant.token, selection.zoneId, window, selection.pageSize);
          if (!(await storeWindow(db, job.workspaceId, selection, window, traffic.rows, clock.now()))) {
            changed = true;
            break;
          }
          summary.windows++;
          summary.rows += traffic.rows.length;
          summary.incompleteHours += traffic.incompleteHours.length;
        } catch (error) {
          // The worker reads Cloudflare's failures (jobErrorOf): a rate limit or an outage is another attempt later.
          if (error instanceof CloudflareAuthError && stored !== undefined) await markGrantRefused(db, clock, job.workspaceId, stored, error.message);
          throw error;
        }
      }
      if (!changed) return { zone: selection.zoneId, ...summary };
    }
    return { stopped: 'the selected zone changed repeatedly while the sync ran; the next poll reads the zone selected then', ...summary };
  },
  async onFailed(job, reason, { db }) {
    await db.updateTable('cdn_connections').set({ last_error: reason }).where('workspace_id', '=', job.workspaceId).execute();
  },
};
