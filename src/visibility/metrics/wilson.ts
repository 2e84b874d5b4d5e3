/** A 95 % confidence interval of a rate. */
export interface Interval {
  low: number;
  high: number;
}

/** A rate with the counts behind it: `count` of `of`; rate and interval are null when `of` is 0 (nothing measured). */
export interface Rate {
  rate: number | null;
  interval: Interval | null;
  count: number;
  of: number;
}

const Z_95 = 1.959964;

export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The Wilson score interval (95 %) of `successes` out of `trials`: unlike the normal approximation it stays inside
 * [0, 1] and is honest for small samples and rates near 0 or 1, which is what engine checks produce.
 */
export function wilsonInterval(successes: number, trials: number): Interval | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const margin = (Z_95 / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: round4(Math.max(0, centre - margin)), high: round4(Math.min(1, centre + margin)) };
}

export function rate(count: number, of: number): Rate {
  return { rate: of > 0 ? round4(count / of) : null, interval: wilsonInterval(count, of), count, of };
}

/**
 * Up or down only when the two 95 % intervals do not overlap; overlapping intervals are `steady` (the difference may be
 * the engines' noise); null when either has no sample.
 */
export function changeBetween(before: Interval | null, after: Interval | null): 'up' | 'down' | 'steady' | null {
  if (before === null || after === null) return null;
  if (after.low > before.high) return 'up';
  if (after.high < before.low) return 'down';
  return 'steady';
}
