import { z } from 'zod';
import { isoTime, pageFields } from '../fields.js';
import { VISIT_SOURCES } from '../../src/analytics/referrers.js';
import { engineName, mentionResult, rate, searchConsoleStatus } from '../visibility/outputs.js';

// What the analytics operations answer.

export const crawlerCategory = z.enum(['training', 'search_index', 'assistant_fetch', 'search_engine', 'other']);

export const crawlerAccessReport = z.object({
  definition: z.string(),
  home: z.string(),
  robots: z.object({
    url: z.string(),
    status: z.enum(['found', 'unavailable', 'unreachable']),
    httpStatus: z.int().nullable(),
    error: z.string().nullable(),
  }),
  summary: z.object({ crawlers: z.int(), robotsAllowed: z.int(), reachable: z.int(), blockedByServer: z.int() }),
  crawlers: z.array(
    z.object({
      token: z.string(),
      operator: z.string().nullable(),
      category: crawlerCategory,
      userAgent: z.string(),
      robotsAllowed: z.boolean(),
      homeStatus: z.int().nullable(),
      homeError: z.string().nullable(),
      reachable: z.boolean(),
    }),
  ),
});

export const rankingsReport = z.object({
  scope: z.enum(['ours', 'site']),
  definition: z.string(),
  searchConsole: searchConsoleStatus,
  ...pageFields,
  rankings: z.array(
    z.object({
      queryId: z.string().nullable().describe('null for an untracked Search Console query.'),
      keyword: z.string(),
      tracked: z.boolean(),
      googlePosition: z.int().nullable(),
      googleCheckedAt: isoTime().nullable(),
      bingPosition: z.int().nullable(),
      bingCheckedAt: isoTime().nullable(),
      clicks: z.int().nullable(),
      impressions: z.int().nullable(),
      gscPosition: z.number().nullable(),
      page: z.string().nullable(),
      isOurs: z.boolean(),
      articleId: z.string().nullable(),
      aiOverviewRate: rate.nullable(),
      aiOverviewShown: z.int().nullable(),
    }),
  ),
});

const engineCheck = z.object({
  result: z.union([mentionResult, z.enum(['pending', 'not_configured'])]),
  checkedAt: isoTime().nullable(),
});

export const googleVsAiReport = z.object({
  definition: z.string(),
  engines: z.object({ configured: z.array(engineName), notConfigured: z.array(engineName) }),
  googleConfigured: z.boolean(),
  summary: z.object({ both: z.int(), google: z.int(), ai: z.int(), neither: z.int(), pending: z.int() }),
  ...pageFields,
  rows: z.array(
    z.object({
      queryId: z.string(),
      queryText: z.string(),
      state: z.enum(['both', 'google', 'ai', 'neither', 'pending']),
      google: z.object({ status: z.enum(['not_configured', 'pending', 'checked']), position: z.int().nullable(), checkedAt: isoTime().nullable() }),
      engines: z.object({
        chatgpt: engineCheck,
        perplexity: engineCheck,
        gemini: engineCheck,
        claude: engineCheck,
        google_ai_overview: engineCheck,
        copilot: engineCheck,
      }),
    }),
  ),
});

export const visitSource = z.enum(VISIT_SOURCES);
const crawlerSource = z.enum(['site_hook', 'cms_plugin', 'cdn']);

/** The AI crawlers of a window, from the selected crawler source. */
export const aiCrawlerVisits = z.object({
  source: crawlerSource,
  definition: z.string(),
  total: z.int(),
  byCrawler: z.array(z.object({ crawler: z.string(), operator: z.string().nullable(), visits: z.int() })),
  byPage: z.array(z.object({ path: z.string(), visits: z.int() })).describe('The 20 most crawled paths.'),
});

const counterTotals = {
  pageViews: z.int(),
  uniqueVisitors: z.int().describe('A sum of daily unique visitors.'),
  sessions: z.int(),
  bounceRate: z.number().nullable(),
  averageTimeOnPageSeconds: z.number().nullable(),
};

export const counterTraffic = z.object({
  ...counterTotals,
  previousPeriod: z.object({ from: z.string(), to: z.string(), ...counterTotals }),
  sessionsBySource: z.array(z.object({ source: visitSource, engine: z.string().nullable(), sessions: z.int() })),
  daily: z.array(z.object({ date: z.string(), pageViews: z.int(), visitors: z.int(), sessions: z.int() })),
  topPages: z.array(z.object({ path: z.string(), pageViews: z.int() })),
  definitions: z.object({ pageViews: z.string(), uniqueVisitors: z.string(), sessions: z.string(), bounceRate: z.string(), averageTimeOnPage: z.string() }),
});

export const siteTraffic = z.object({
  provider: z.enum(['plausible', 'umami', 'ga4']),
  breakdownCounts: z.enum(['visits', 'visitors']).describe('What bySource, daily and topPages count (Umami counts visitors there).'),
  visits: z.int(),
  previousVisits: z.int().describe('The same number of days just before.'),
  visitors: z.int().nullable(),
  pageviews: z.int().nullable(),
  visitsFromSearch: z.int(),
  visitsFromAi: z.int(),
  visitsFromAiByEngine: z.array(z.object({ engine: z.string(), visits: z.int() })),
  bySource: z.array(z.object({ source: visitSource, engine: z.string().nullable(), visits: z.int() })),
  daily: z.array(z.object({ date: z.string(), visits: z.int() })),
  topPages: z.array(z.object({ path: z.string(), visits: z.int() })),
});

// The Reports screen's two reads (get_reports_summary, get_reports_wins); the weekly-report resource renders them too.
const reportWindow = z.object({ days: z.int(), from: z.string(), to: z.string() });
const interval = z.object({ low: z.number(), high: z.number() }).nullable();
const change = z.enum(['up', 'down', 'steady']).nullable().describe('up or down only when the intervals do not overlap.');

export const reportSummary = z.object({
  window: reportWindow,
  previousWindow: reportWindow,
  visibility: z.object({ score: z.number().nullable(), range: interval, previousScore: z.number().nullable(), previousRange: interval, change, definition: z.string() }),
  shareOfVoice: z.object({ share: z.number().nullable(), interval, previousShare: z.number().nullable(), previousInterval: interval, change, definition: z.string() }),
  articlesPublished: z.object({ count: z.int(), previous: z.int() }),
  aiTraffic: z.object({ visits: z.int(), previous: z.int(), source: z.enum(['own_counter', 'analytics_provider']), definition: z.string() }),
  crawls: z.object({ count: z.int(), previous: z.int(), source: z.enum(['site_hook', 'cms_plugin', 'cdn']), definition: z.string() }),
  leads: z.object({ total: z.int(), fromAi: z.int(), previousTotal: z.int(), previousFromAi: z.int() }),
  backlinksGained: z.object({ count: z.int().nullable(), previous: z.int().nullable(), reason: z.string().nullable() }).describe('Links first seen in the window and the window before; null with the reason while there is no backlink data.'),
  narrative: z.string(),
});

export const reportWins = z.object({
  window: z.object({ days: z.int(), from: z.string(), to: z.string() }),
  definition: z.string(),
  newlyCited: z.array(z.object({ queryId: z.string(), query: z.string(), engine: z.string(), firstCitedAt: isoTime(), answerId: z.string() })),
  aiTrafficGrowth: z.array(z.object({ path: z.string(), aiVisits: z.int(), previousAiVisits: z.int(), growth: z.int() })),
  newReferrers: z.array(z.object({ host: z.string(), firstSeenAt: isoTime(), sessions: z.int() })),
});
