/**
 * The counter bench's site, written straight into the tables the reports read (posting ten million events through the
 * collect endpoint would take over an hour): `days` of daily sums for about `events` counted events — page views, the
 * engagement report of each page view that reported visible time, and leads — over 2,000 paths with a long-tail
 * (Zipf) spread of views, sessions by source and answer engine, the leads themselves, citations of the articles' pages
 * in AI answers and AI-crawler visits. The sums agree with one another as the batch writer leaves them (a day's page
 * views are its pages' views and their weeks', its sessions its sources' sessions, the leads per source the stored leads); the
 * sessions and visitors tables, which no report reads, are left empty. Seeded, so every run generates the same data.
 */
import { weekKey } from '../../src/analytics/counter/record.js';
import { classifyUserAgent } from '../../src/crawlers/classify.js';
import { ENGINE_NAMES } from '../../src/visibility/engines/engine.js';
import { pageKey } from '../../src/visibility/rankings/pages.js';
import { seededRandom, type BulkWriter, type Row } from './store.js';

export const PATHS = 2000;
export const ARTICLES = 500;
export const LEADS = 3000;
const CRAWLER_VISITS = 20_000;
const DAY_MS = 86_400_000;
/** Of the page views, the share that reported visible time (one engagement event each). */
const ENGAGED_SHARE = 0.85;
const PAGES_PER_SESSION = 1.8;

export const COUNTER_TABLES = {
  counter_days: { workspace_id: 'text', day: 'text', pageviews: 'integer', visitors: 'integer', sessions: 'integer', bounces: 'integer', engaged_ms: 'bigint', engaged_views: 'integer' },
  counter_page_days: { workspace_id: 'text', path: 'text', day: 'text', pageviews: 'integer', engaged_ms: 'bigint', engaged_views: 'integer' },
  counter_page_weeks: { workspace_id: 'text', week: 'text', path: 'text', pageviews: 'integer' },
  counter_source_days: { workspace_id: 'text', day: 'text', source: 'text', engine: 'text', sessions: 'integer', leads: 'integer' },
  leads: {
    id: 'text',
    workspace_id: 'text',
    created_at: 'bigint',
    session_id: 'text',
    path: 'text',
    page_url: 'text',
    form: 'text',
    email: 'text',
    name: 'text',
    fields: 'text',
    referrer: 'text',
    utm_source: 'text',
    utm_medium: 'text',
    utm_campaign: 'text',
    source: 'text',
    engine: 'text',
  },
  cited_pages_daily: { workspace_id: 'text', page_key: 'text', day: 'bigint', engine: 'text', answers: 'integer' },
  crawler_visits: { id: 'text', workspace_id: 'text', path: 'text', article_id: 'text', user_agent: 'text', crawler: 'text', category: 'text', operator: 'text', visited_at: 'bigint', reporter: 'text' },
} as const;

export type CounterWriter = BulkWriter<keyof typeof COUNTER_TABLES>;

/** Where sessions come from: shares of a day's sessions, and how much likelier than average each is to end in a lead. */
const SOURCES: ReadonlyArray<{ source: string; engine: string; share: number; referrer: string | null; leadFactor: number }> = [
  { source: 'search', engine: '', share: 0.42, referrer: 'google.com', leadFactor: 1 },
  { source: 'direct', engine: '', share: 0.27, referrer: null, leadFactor: 1.2 },
  { source: 'social', engine: '', share: 0.11, referrer: 'linkedin.com', leadFactor: 0.6 },
  { source: 'other', engine: '', share: 0.09, referrer: 'news.ycombinator.com', leadFactor: 0.8 },
  { source: 'ai', engine: 'chatgpt', share: 0.055, referrer: 'chatgpt.com', leadFactor: 2 },
  { source: 'ai', engine: 'perplexity', share: 0.022, referrer: 'perplexity.ai', leadFactor: 2 },
  { source: 'ai', engine: 'gemini', share: 0.012, referrer: 'gemini.google.com', leadFactor: 1.8 },
  { source: 'ai', engine: 'claude', share: 0.008, referrer: 'claude.ai', leadFactor: 2.2 },
  { source: 'ai', engine: 'copilot', share: 0.006, referrer: 'copilot.microsoft.com', leadFactor: 1.5 },
  { source: 'ai', engine: 'deepseek', share: 0.004, referrer: 'chat.deepseek.com', leadFactor: 1.5 },
];

const CRAWLER_AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)',
  'CCBot/2.0 (https://commoncrawl.org/faq/)',
];

const SECTIONS = ['docs', 'features', 'customers', 'integrations', 'changelog', 'help'];

/** The site's paths, most visited first: the home page and a few fixed pages, then articles and the rest interleaved. */
export function sitePaths(): { paths: string[]; articlePaths: string[] } {
  const articlePaths = Array.from({ length: ARTICLES }, (_, n) => `/blog/article-${n}`);
  const fixed = ['/', '/pricing', '/features', '/blog', '/about', '/contact', '/docs', '/login', '/signup', '/customers'];
  const others = Array.from({ length: PATHS - fixed.length - ARTICLES }, (_, n) => `/${SECTIONS[n % SECTIONS.length]}/page-${Math.floor(n / SECTIONS.length)}`);
  // One article after every three other pages, so that articles sit at every rank of the tail.
  const rest: string[] = [];
  for (let a = 0, o = 0; a < articlePaths.length || o < others.length; ) {
    if (a < articlePaths.length && (rest.length % 4 === 3 || o >= others.length)) rest.push(articlePaths[a++]!);
    else rest.push(others[o++]!);
  }
  return { paths: [...fixed, ...rest], articlePaths };
}

export const articleUrl = (domain: string, n: number) => `https://${domain}/blog/article-${n}`;

export interface CounterSite {
  workspaceId: string;
  domain: string;
  now: number;
  /** Article ids in the order of articleUrl's n. */
  articleIds: readonly string[];
}

export interface CounterReport {
  rows: Record<string, number>;
  pageViews: number;
  engagementReports: number;
  leads: number;
  events: number;
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** A Poisson draw for small means (Knuth), a rounded normal one for large. */
function poisson(rand: () => number, mean: number): number {
  if (mean > 30) {
    const normal = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    return Math.max(0, Math.round(mean + normal * Math.sqrt(mean)));
  }
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = rand(); p > limit; p *= rand()) k++;
  return k;
}

/** Splits a whole number by shares, the remainder going to the largest, so that the parts add up exactly. */
function split(total: number, shares: readonly number[]): number[] {
  const whole = shares.reduce((sum, share) => sum + share, 0);
  const parts = shares.map((share) => Math.floor((total * share) / whole));
  parts[shares.indexOf(Math.max(...shares))]! += total - parts.reduce((sum, part) => sum + part, 0);
  return parts;
}

/** Writes `days` days ending today for about `events` events; the workspace, its site and its articles already exist. */
export async function generateCounter(writer: CounterWriter, site: CounterSite, events: number, days: number): Promise<CounterReport> {
  const rand = seededRandom(20261126);
  const counts: Record<string, number> = {};
  const write = async (table: keyof typeof COUNTER_TABLES, rows: Row[]) => {
    counts[table] = (counts[table] ?? 0) + rows.length;
    await writer.insert(table, rows);
  };
  const firstDay = Math.floor(site.now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const { paths } = sitePaths();
  // Zipf with exponent 1: the n-th path gets 1/n of the first's views.
  const weights = paths.map((_, rank) => 1 / (rank + 1));
  const weightSum = weights.reduce((sum, w) => sum + w, 0);
  const secondsOnPage = paths.map(() => 20 + rand() * 100);
  // Growth over the history and quieter weekends, so that the windows differ as a real site's do.
  const dayShape = Array.from({ length: days }, (_, d) => {
    const weekday = new Date(firstDay + d * DAY_MS).getUTCDay();
    return (0.8 + (0.4 * d) / days) * (weekday === 0 || weekday === 6 ? 0.7 : 1) * (0.9 + 0.2 * rand());
  });
  const shapeSum = dayShape.reduce((sum, s) => sum + s, 0);
  const pageViewsWanted = (events - LEADS) / (1 + ENGAGED_SHARE);

  // Leads first, so that each day's source sums can count them.
  const leadShares = SOURCES.map((s) => s.share * s.leadFactor);
  const leadsByKey = new Map<string, number>();
  const leadRows: Row[] = [];
  for (let n = 0; n < LEADS; n++) {
    const d = Math.min(days - 1, Math.floor(rand() * days));
    let pick = rand() * leadShares.reduce((sum, share) => sum + share, 0);
    const from = SOURCES.find((_, i) => (pick -= leadShares[i]!) < 0) ?? SOURCES[0]!;
    const key = `${d}|${from.source}|${from.engine}`;
    leadsByKey.set(key, (leadsByKey.get(key) ?? 0) + 1);
    const path = rand() < 0.6 ? '/contact' : '/pricing';
    leadRows.push([
      `lead_bench${String(n).padStart(9, '0')}`,
      site.workspaceId,
      Math.min(site.now - 1, firstDay + d * DAY_MS + Math.floor(rand() * DAY_MS)),
      `ses_bench${String(n).padStart(9, '0')}`,
      path,
      `https://${site.domain}${path}`,
      'demo',
      `lead${n}@customer-${n % 700}.example`,
      `Lead ${n}`,
      JSON.stringify({ company: `Customer ${n % 700}`, message: 'We would like a demo.' }),
      from.referrer,
      from.source === 'ai' && rand() < 0.3 ? from.referrer : null,
      null,
      null,
      from.source,
      from.source === 'ai' ? from.engine : null,
    ]);
  }
  await write('leads', leadRows);

  let pageViews = 0;
  let engagementReports = 0;
  const weeks = new Map<string, Row>();
  for (let d = 0; d < days; d++) {
    const day = isoDay(firstDay + d * DAY_MS);
    const week = weekKey(day);
    const expected = (pageViewsWanted * dayShape[d]!) / shapeSum;
    const pageRows: Row[] = [];
    let views = 0;
    let engaged = 0;
    let engagedMs = 0;
    paths.forEach((path, rank) => {
      const pathViews = poisson(rand, (expected * weights[rank]!) / weightSum);
      if (pathViews === 0) return;
      const pathEngaged = Math.round(pathViews * ENGAGED_SHARE);
      const pathMs = Math.round(pathEngaged * secondsOnPage[rank]! * 1000);
      pageRows.push([site.workspaceId, path, day, pathViews, pathMs, pathEngaged]);
      const weekRow = weeks.get(`${week}|${path}`) ?? [site.workspaceId, week, path, 0];
      weekRow[3] = (weekRow[3] as number) + pathViews;
      weeks.set(`${week}|${path}`, weekRow);
      views += pathViews;
      engaged += pathEngaged;
      engagedMs += pathMs;
    });
    await write('counter_page_days', pageRows);
    const sessions = Math.round(views / PAGES_PER_SESSION);
    await write('counter_days', [[site.workspaceId, day, views, Math.round(sessions * 0.82), sessions, Math.round(sessions * 0.45), engagedMs, engaged]]);
    const bySource = split(
      sessions,
      SOURCES.map((s) => s.share),
    );
    await write(
      'counter_source_days',
      SOURCES.map((s, i) => [site.workspaceId, day, s.source, s.engine, bySource[i]!, leadsByKey.get(`${d}|${s.source}|${s.engine}`) ?? 0]),
    );
    pageViews += views;
    engagementReports += engaged;
  }
  await write('counter_page_weeks', [...weeks.values()]);

  // Each article is cited by some engines on some days, in proportion to how citable it is.
  const cited: Row[] = [];
  for (let n = 0; n < ARTICLES; n++) {
    const key = pageKey(articleUrl(site.domain, n));
    const citable = rand() * 0.5;
    for (let d = 0; d < days; d++) {
      for (const engine of ENGINE_NAMES) {
        if (rand() < citable) cited.push([site.workspaceId, key, firstDay + d * DAY_MS, engine, 1 + Math.floor(rand() * 3)]);
      }
    }
  }
  await write('cited_pages_daily', cited);

  const crawls: Row[] = [];
  for (let n = 0; n < CRAWLER_VISITS; n++) {
    const agent = CRAWLER_AGENTS[Math.floor(rand() * CRAWLER_AGENTS.length)]!;
    const crawler = classifyUserAgent(agent);
    const article = rand() < 0.6 ? Math.floor(rand() * ARTICLES) : null;
    const path = article === null ? paths[Math.floor(Math.pow(rand(), 3) * paths.length)]! : `/blog/article-${article}`;
    crawls.push([
      `cv_bench${String(n).padStart(9, '0')}`,
      site.workspaceId,
      path,
      article === null ? null : site.articleIds[article]!,
      agent,
      crawler.crawler,
      crawler.category,
      crawler.operator,
      Math.min(site.now - 1, firstDay + Math.floor(rand() * days * DAY_MS)),
      'site_hook',
    ]);
  }
  await write('crawler_visits', crawls);
  return { rows: counts, pageViews, engagementReports, leads: LEADS, events: pageViews + engagementReports + LEADS };
}
