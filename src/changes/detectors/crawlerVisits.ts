import { crawlerVisits } from '../../analytics/trafficOverview.js';
import type { ChangeDetector } from './detector.js';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** The one-sided test's level: a fall is reported when chance alone would make one this large less than 5 % of the time. */
export const VISITS_FALL_ALPHA = 0.05;

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * The one-sided p-value of a fall from `earlier` visits in one week to `recent` in the next, both weeks the same
 * length. If visits arrive as a Poisson process whose rate did not change, then given the n = earlier + recent visits
 * of the two weeks, the recent week's count is Binomial(n, ½) (the conditional test for two Poisson counts): the
 * p-value is P(X ≤ recent). Summed from `recent` down, each term at most half the one above it when recent < n / 3.
 */
export function visitsFallPValue(earlier: number, recent: number): number {
  const n = earlier + recent;
  if (n === 0) return 1;
  let term = Math.exp(logGamma(n + 1) - logGamma(recent + 1) - logGamma(n - recent + 1) - n * Math.LN2);
  let p = 0;
  for (let k = recent; k >= 0; k--) {
    p += term;
    if (term < p * 1e-15) break;
    term *= k / (n - k + 1);
  }
  return Math.min(1, p);
}

/** Monday 00:00 UTC of the week holding `at`. */
function weekStart(at: number): number {
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
}

/**
 * crawler.visits_fell: the AI-crawler visits of the last 7 whole UTC days (from the source the analytics area reads:
 * the site's hook, the CMS plugin or the CDN) against the 7 before. Recorded when the earlier week had at least the
 * rule's threshold of visits, the recent week less than half of it, and the one-sided test says chance would make such
 * a fall less than 5 % of the time. Keyed by the calendar week it was found in: once a week at most.
 */
export const crawlerVisitsDetector: ChangeDetector = {
  name: 'crawler visits',
  async detect({ db, clock, workspaceId, rules }) {
    const rule = rules['crawler.visits_fell'];
    const minimum = rule.threshold ?? 50;
    const site = await db.selectFrom('analytics_sites').select('crawler_source').where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (site === undefined) return [];
    const until = Math.floor(clock.now() / DAY_MS) * DAY_MS;
    const [recent, earlier] = await Promise.all([
      crawlerVisits(db, workspaceId, site.crawler_source, { since: until - WEEK_MS, until }),
      crawlerVisits(db, workspaceId, site.crawler_source, { since: until - 2 * WEEK_MS, until: until - WEEK_MS }),
    ]);
    if (earlier.total < minimum || recent.total * 2 >= earlier.total) return [];
    const pValue = visitsFallPValue(earlier.total, recent.total);
    if (pValue >= VISITS_FALL_ALPHA) return [];
    const fell = Math.round((1 - recent.total / earlier.total) * 100);
    const before = new Map(earlier.byCrawler.map((row) => [row.crawler, row.visits]));
    const now = new Map(recent.byCrawler.map((row) => [row.crawler, row.visits]));
    const byCrawler = [...new Set([...before.keys(), ...now.keys()])]
      .map((crawler) => ({ crawler, earlier: before.get(crawler) ?? 0, recent: now.get(crawler) ?? 0 }))
      .sort((a, b) => a.recent - a.earlier - (b.recent - b.earlier) || a.crawler.localeCompare(b.crawler));
    return [
      {
        kind: 'crawler.visits_fell',
        dedupeKey: new Date(weekStart(until)).toISOString().slice(0, 10),
        title: `AI-crawler visits fell ${fell} % week over week: ${recent.total} in the last 7 days, ${earlier.total} in the 7 before`,
        details: {
          source: site.crawler_source,
          recent: { since: new Date(until - WEEK_MS).toISOString(), until: new Date(until).toISOString(), visits: recent.total },
          earlier: { since: new Date(until - 2 * WEEK_MS).toISOString(), until: new Date(until - WEEK_MS).toISOString(), visits: earlier.total },
          fellPercent: fell,
          pValue,
          byCrawler,
        },
      },
    ];
  },
};
