import type { VisitClassification } from '../referrers.js';
import type { DayRange, SiteTraffic, SourceVisits } from './provider.js';

const DAY_MS = 86_400_000;
export const TOP_PAGES = 10;

/** Every day of the range, in order. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  const last = Date.parse(`${range.to}T00:00:00Z`);
  for (let day = Date.parse(`${range.from}T00:00:00Z`); day <= last; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

/** The epoch milliseconds a range covers: the first millisecond of `from` to the last of `to`, UTC. */
export function rangeMs(range: DayRange): { startAt: number; endAt: number } {
  return { startAt: Date.parse(`${range.from}T00:00:00Z`), endAt: Date.parse(`${range.to}T00:00:00Z`) + DAY_MS - 1 };
}

/** Providers list only the days that had visits; the trend shows every day of the range. */
export function dailySeries(range: DayRange, visitsByDay: ReadonlyMap<string, number>): SiteTraffic['daily'] {
  return daysOf(range).map((date) => ({ date, visits: visitsByDay.get(date) ?? 0 }));
}

/** Rows classified one by one, summed per source and engine, most visits first. */
export function sumBySource(rows: Iterable<{ classification: VisitClassification; visits: number }>): SourceVisits[] {
  const sums = new Map<string, SourceVisits>();
  for (const { classification, visits } of rows) {
    const key = `${classification.source}\n${classification.engine ?? ''}`;
    const sum = sums.get(key) ?? { source: classification.source, engine: classification.engine, visits: 0 };
    sum.visits += visits;
    sums.set(key, sum);
  }
  return [...sums.values()].filter((sum) => sum.visits > 0).sort((a, b) => b.visits - a.visits || a.source.localeCompare(b.source) || (a.engine ?? '').localeCompare(b.engine ?? ''));
}

/** The most visited pages, most first; ties by path, so the order does not depend on the provider's. */
export function topPagesOf(pages: Iterable<{ path: string; visits: number }>): SiteTraffic['topPages'] {
  return [...pages].sort((a, b) => b.visits - a.visits || a.path.localeCompare(b.path)).slice(0, TOP_PAGES);
}

/**
 * The calls' results, like Promise.all, but settled only once every call has: a traffic() that fails leaves none of
 * its requests running behind it. The first failure, in the calls' order, is the one thrown.
 */
export async function settleAll<T extends readonly unknown[]>(calls: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const failed = (await Promise.allSettled(calls)).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return Promise.all(calls);
}
