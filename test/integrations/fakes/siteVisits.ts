// The visits the three analytics fakes hold, each turning them into its provider's answers, and the figures a test
// expects from them, counted by hand.

/** One visit as it happened: the fakes derive each provider's source names and counts from these. */
export interface SiteVisit {
  /** YYYY-MM-DD, UTC. */
  date: string;
  /** The same id on two visits is one returning visitor. */
  visitor: string;
  /** The Referer the browser sent, null for none. */
  referrer: string | null;
  utmSource?: string;
  utmMedium?: string;
  /** The paths viewed, in order. */
  pages: string[];
}

export const SITE_HOST = 'acme.example';
/** 18 November has no visits: the trend still shows it, as 0. */
export const RANGE = { from: '2026-11-16', to: '2026-11-20' };

export const SITE_VISITS: readonly SiteVisit[] = [
  { date: '2026-11-16', visitor: 'v1', referrer: 'https://www.google.com/', pages: ['/', '/pricing'] },
  { date: '2026-11-16', visitor: 'v2', referrer: 'https://chatgpt.com/', utmSource: 'chatgpt.com', pages: ['/blog/crm-guide'] },
  { date: '2026-11-16', visitor: 'v3', referrer: null, pages: ['/'] },
  { date: '2026-11-17', visitor: 'v1', referrer: 'https://www.google.co.uk/search?q=acme', pages: ['/pricing'] },
  { date: '2026-11-17', visitor: 'v4', referrer: 'https://www.perplexity.ai/search/best-crm-Xy12', pages: ['/blog/crm-guide', '/pricing'] },
  { date: '2026-11-17', visitor: 'v5', referrer: 'https://l.facebook.com/', pages: ['/'] },
  { date: '2026-11-17', visitor: 'v6', referrer: 'https://gemini.google.com/', pages: ['/features'] },
  { date: '2026-11-19', visitor: 'v7', referrer: 'https://duckduckgo.com/', pages: ['/'] },
  { date: '2026-11-19', visitor: 'v8', referrer: 'https://claude.ai/', pages: ['/features', '/pricing', '/signup'] },
  // ChatGPT's app sends no referrer, only its utm_source.
  { date: '2026-11-19', visitor: 'v2', referrer: null, utmSource: 'chatgpt.com', pages: ['/blog/crm-guide'] },
  { date: '2026-11-19', visitor: 'v9', referrer: 'https://copilot.microsoft.com/', pages: ['/'] },
  { date: '2026-11-20', visitor: 'v10', referrer: 'https://some-blog.example/post/crm-tools', pages: ['/blog/crm-guide'] },
  // From the site's own page: navigation inside the site.
  { date: '2026-11-20', visitor: 'v11', referrer: 'https://acme.example/pricing', pages: ['/signup'] },
  { date: '2026-11-20', visitor: 'v12', referrer: 'https://t.co/aBc123', pages: ['/'] },
  { date: '2026-11-20', visitor: 'v13', referrer: 'https://chat.deepseek.com/', pages: ['/features'] },
  { date: '2026-11-20', visitor: 'v3', referrer: null, pages: ['/pricing'] },
];

/** Totals over RANGE: 16 visits by 13 visitors (v1, v2 and v3 came twice), 20 pages viewed. */
export const TOTALS = { visits: 16, visitors: 13, pageviews: 20 };

/**
 * Visits per source where the provider counts visits and reads full referrers (Plausible, GA4): Google twice and
 * DuckDuckGo; ChatGPT by referrer and by its tag alone; the own-site referral and the two visits without a referrer.
 */
export const VISITS_BY_SOURCE = [
  { source: 'direct', engine: null, visits: 3 },
  { source: 'search', engine: null, visits: 3 },
  { source: 'ai', engine: 'chatgpt', visits: 2 },
  { source: 'social', engine: null, visits: 2 },
  { source: 'ai', engine: 'claude', visits: 1 },
  { source: 'ai', engine: 'copilot', visits: 1 },
  { source: 'ai', engine: 'deepseek', visits: 1 },
  { source: 'ai', engine: 'gemini', visits: 1 },
  { source: 'ai', engine: 'perplexity', visits: 1 },
  { source: 'other', engine: null, visits: 1 },
];

export const VISITS_BY_DAY = [
  { date: '2026-11-16', visits: 3 },
  { date: '2026-11-17', visits: 4 },
  { date: '2026-11-18', visits: 0 },
  { date: '2026-11-19', visits: 4 },
  { date: '2026-11-20', visits: 5 },
];

/** Visits that viewed each page. */
export const TOP_PAGES_BY_VISITS = [
  { path: '/', visits: 6 },
  { path: '/pricing', visits: 5 },
  { path: '/blog/crm-guide', visits: 4 },
  { path: '/features', visits: 3 },
  { path: '/signup', visits: 2 },
];

/** The host of a URL without `www.`. */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

/** Whether a visit came from another site (its referrer is not the site itself). */
export function referredFrom(visit: SiteVisit): string | undefined {
  if (visit.referrer === null) return undefined;
  const host = hostOf(visit.referrer);
  return host === SITE_HOST ? undefined : host;
}

/** One page viewed, with the visit it belongs to: the fakes group these by the dimensions asked for. */
export interface Pageview {
  visitIndex: number;
  visit: SiteVisit;
  page: string;
}

export function pageviewsIn(visits: readonly SiteVisit[], from: string, to: string): Pageview[] {
  return visits.flatMap((visit, visitIndex) => (visit.date < from || visit.date > to ? [] : visit.pages.map((page) => ({ visitIndex, visit, page }))));
}

/** The three counts every provider offers, over a group of pageviews. */
export function countsOf(pageviews: readonly Pageview[]): { visits: number; visitors: number; pageviews: number } {
  return {
    visits: new Set(pageviews.map((view) => view.visitIndex)).size,
    visitors: new Set(pageviews.map((view) => view.visit.visitor)).size,
    pageviews: pageviews.length,
  };
}

/** Pageviews grouped by a key of each, groups in the order first seen. */
export function groupBy(pageviews: readonly Pageview[], key: (view: Pageview) => string): Map<string, Pageview[]> {
  const groups = new Map<string, Pageview[]>();
  for (const view of pageviews) {
    const name = key(view);
    groups.set(name, [...(groups.get(name) ?? []), view]);
  }
  return groups;
}

/** Numbers by value, text by code points: how the fakes order rows. */
export function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
