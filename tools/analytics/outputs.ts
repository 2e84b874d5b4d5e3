import { z } from 'zod';
import { isoTime, pageFields } from '../fields.js';
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
