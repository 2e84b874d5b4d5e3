export const HOUR_MS = 3_600_000;

/** A span of whole UTC hours, `since` included and `until` excluded, in epoch milliseconds. */
export interface TrafficWindow {
  since: number;
  until: number;
}

/** What Cloudflare lets a zone read from httpRequestsAdaptiveGroups (its GraphQL settings node), in seconds and rows. */
export interface ZoneLimits {
  /** How far back a query may start (`notOlderThan`). */
  retentionSeconds: number;
  /** The widest time range one query may ask for (`maxDuration`). */
  maxDurationSeconds: number;
  /** The most groups one query answers (`maxPageSize`). */
  maxPageSize: number;
}

/**
 * Used for whatever the settings node leaves out. Cloudflare documents at least 31 days of retention for adaptive
 * datasets on every plan; one day per query is kept small on purpose, since a window wider than the plan allows fails
 * whole; 10,000 rows is the page maximum Cloudflare's settings example shows.
 */
export const DEFAULT_ZONE_LIMITS: ZoneLimits = { retentionSeconds: 31 * 86_400, maxDurationSeconds: 86_400, maxPageSize: 10_000 };

/**
 * The oldest readable hour is left out: the job starts on the oldest chunk minutes or hours after planning, by which
 * time Cloudflare would refuse a start right at the retention edge ("cannot request data older than …").
 */
const RETENTION_MARGIN_MS = HOUR_MS;

/** The first whole hour a query may start at now, with the margin above. */
export function oldestReadableHour(retentionSeconds: number, now: number): number {
  return Math.ceil((now - retentionSeconds * 1000 + RETENTION_MARGIN_MS) / HOUR_MS) * HOUR_MS;
}

/**
 * The zone's readable history split into windows a durable job fetches one at a time, oldest first, so that it can
 * resume after the last window it stored. Windows hold whole hours only: the hour in progress is still counting and
 * belongs to the next regular sync, and hour-aligned edges keep each hour in exactly one window. None is wider than
 * the zone's `maxDuration` (at least one hour).
 */
export function planBackfill(limits: Pick<ZoneLimits, 'retentionSeconds' | 'maxDurationSeconds'>, now: number): TrafficWindow[] {
  const until = Math.floor(now / HOUR_MS) * HOUR_MS;
  const since = oldestReadableHour(limits.retentionSeconds, now);
  const width = Math.max(HOUR_MS, Math.floor((limits.maxDurationSeconds * 1000) / HOUR_MS) * HOUR_MS);
  const windows: TrafficWindow[] = [];
  for (let start = since; start < until; start += width) windows.push({ since: start, until: Math.min(start + width, until) });
  return windows;
}
