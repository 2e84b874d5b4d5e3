import { z } from 'zod';
import { POSITIONING_STATUSES } from '../../src/visibility/competitors/positioning.js';
import { isoTime } from '../fields.js';

// Records the visibility and analytics operations share.

export const engineName = z.enum(['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot']);
export const mentionResult = z.enum(['cited', 'mentioned', 'none', 'not_shown', 'failed']);

/** A share with its 95 % Wilson interval: count of `of`; rate and interval are null when `of` is 0. */
export const rate = z.object({
  rate: z.number().nullable().describe('0 to 1; null when nothing was measured.'),
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  count: z.int(),
  of: z.int(),
});

export const searchConsoleStatus = z.object({
  connected: z.boolean(),
  property: z.string().nullable(),
  lastSyncAt: isoTime().nullable(),
  startDate: z.string().nullable().describe('YYYY-MM-DD: the first day of the synced period.'),
  endDate: z.string().nullable(),
});

export const metricWindow = z.object({ days: z.int(), from: z.string().describe('YYYY-MM-DD, UTC.'), to: z.string() });

const interval = z.object({ low: z.number(), high: z.number() });
export const component = z.enum(['mentionRate', 'shareOfVoice', 'citationRate', 'sentiment']);

export const components = z.object({
  mentionRate: rate,
  citationRate: rate,
  shareOfVoice: rate,
  sentiment: z.object({ value: z.number().nullable().describe('Mean sentiment score / 100.'), interval: interval.nullable(), of: z.int() }),
});

/** The composite visibility score: null with a reason when nothing was checked. */
const compositeFields = {
  score: z.number().nullable().describe('0 to 100.'),
  range: interval.nullable().describe('The score with every component at the low and high end of its interval.'),
  missing: z.array(z.object({ component, reason: z.string() })),
  reason: z.string().nullable(),
};

export const visibilityScoreReport = z.object({
  definition: z.string(),
  version: z.string(),
  formula: z.string(),
  weights: z.object({ mentionRate: z.number(), shareOfVoice: z.number(), citationRate: z.number(), sentiment: z.number() }),
  definitions: z.object({ mentionRate: z.string(), citationRate: z.string(), shareOfVoice: z.string(), sentiment: z.string(), agreement: z.string() }),
  window: metricWindow,
  model: engineName.nullable(),
  competitorsTracked: z.int(),
  ...compositeFields,
  basedOn: z.array(component),
  components,
  agreement: rate.describe('Run-to-run agreement over cells asked more than once.'),
  previous: z.object({
    window: metricWindow,
    mentionRate: rate,
    mentionRateChange: z.enum(['up', 'down', 'steady']).nullable().describe('up or down only when the two intervals do not overlap.'),
  }),
  sampleSize: z.object({
    answersChecked: z.int(),
    failedChecks: z.int(),
    noAnswerShown: z.int().describe('Checks whose search page showed no AI answer: left out of every rate.'),
    answersWithCitations: z.int(),
    answersNamingBrand: z.int(),
    answersWithSentiment: z.int(),
    competitorMentions: z.int(),
  }),
  byEngine: z.array(
    z.object({
      engine: engineName,
      configured: z.boolean(),
      ...compositeFields,
      components,
      agreement: rate,
      sampleSize: z.object({ answersChecked: z.int(), failedChecks: z.int(), noAnswerShown: z.int() }),
    }),
  ),
});

export const visibilityTrendReport = z.object({
  definition: z.string(),
  definitions: z.object({ mentionRate: z.string(), citationRate: z.string(), score: z.string() }),
  version: z.string(),
  window: metricWindow,
  model: engineName.nullable(),
  points: z.array(
    z.object({
      date: z.string().describe('YYYY-MM-DD, UTC.'),
      mentionRateChange: z.enum(['up', 'down', 'steady']).nullable().describe('Against the point before; up or down only when the intervals do not overlap.'),
      mentionRate: rate,
      citationRate: rate,
      score: z.number().nullable(),
      scoreRange: interval.nullable(),
      scoreBasedOn: z.array(component),
      sampleSize: z.object({ answersChecked: z.int(), failedChecks: z.int(), noAnswerShown: z.int(), answersWithCitations: z.int() }),
    }),
  ),
});

export const shareOfVoiceReport = z.object({
  definition: z.string(),
  window: metricWindow,
  model: engineName.nullable(),
  sampleSize: z.object({ answersChecked: z.int(), failedChecks: z.int(), noAnswerShown: z.int(), totalMentions: z.int(), competitorsTracked: z.int() }),
  subjects: z.array(
    z.object({
      subjectId: z.string(),
      name: z.string(),
      isBrand: z.boolean(),
      domain: z.string().nullable(),
      answersNaming: z.int(),
      cited: z.int(),
      mentioned: z.int(),
      share: rate,
    }),
  ),
});

export const citationSourcesReport = z.object({
  definition: z.string(),
  window: metricWindow,
  model: engineName.nullable(),
  sampleSize: z.object({ answersChecked: z.int(), answersWithCitations: z.int(), distinctDomains: z.int() }),
  sources: z.array(
    z.object({
      domain: z.string(),
      answers: z.int(),
      share: rate,
      isBrand: z.boolean(),
      competitorId: z.string().nullable(),
      competitorName: z.string().nullable(),
    }),
  ),
});

const sentimentShares = {
  answersNaming: z.int(),
  answersWithSentiment: z.int(),
  positive: rate,
  neutral: rate,
  negative: rate,
  meanScore: z.number().nullable().describe('0 to 100; 50 is neutral.'),
};

export const sentimentReport = z.object({
  definition: z.string(),
  window: metricWindow,
  model: engineName.nullable(),
  sampleSize: z.object({ answersChecked: z.int(), failedChecks: z.int(), noAnswerShown: z.int(), answersNaming: z.int(), answersWithSentiment: z.int() }),
  brand: z.object(sentimentShares),
  competitors: z.array(z.object({ competitorId: z.string(), name: z.string(), ...sentimentShares })),
});

export const citationsPage = z.object({
  checks: z.array(
    z.object({
      checkId: z.string(),
      queryId: z.string(),
      queryText: z.string(),
      model: engineName,
      modelVersion: z.string().nullable(),
      runIndex: z.int(),
      cited: z.boolean(),
      result: mentionResult,
      errorClass: z.string().nullable(),
      citations: z.array(z.object({ url: z.string(), domain: z.string(), title: z.string().nullable(), rank: z.int() })),
      checkedAt: isoTime(),
    }),
  ),
  nextBefore: isoTime().nullable().describe('Pass as before for the next page; null on the last.'),
});

/** What competitors and the brand share in get_competitors: numbers over the last 30 UTC days. */
const subjectNumbers = {
  aiVisibilityScore: z.number().nullable().describe('100 x the mention rate, one decimal; null without answers.'),
  mentionRate: rate,
  citations: z.object({ cited: z.int(), mentioned: z.int(), checks: z.int(), failed: z.int() }),
  domainMetrics: z.object({ domain: z.string(), citedInAnswers: z.int(), answersWithCitations: z.int(), citationRate: rate }),
};

export const competitor = z.object({
  competitorId: z.string(),
  name: z.string(),
  websiteUrl: z.string(),
  aliases: z.array(z.string()),
  ...subjectNumbers,
  positioning: z.object({
    status: z.enum(POSITIONING_STATUSES),
    summary: z.string().nullable().describe('How answers present it beside the brand.'),
    note: z.string().nullable().describe('Why there is no summary.'),
    sharedAnswers: z.int().nullable().describe('Answers of the last 30 days naming both, at the last count.'),
    minimumAnswers: z.int(),
    sampleSize: z.int().describe('Answers the summary drew on.'),
    answers: z.array(z.object({ answerId: z.string(), engine: engineName, checkedAt: isoTime() })),
    model: z.string().nullable(),
    madeAt: isoTime().nullable(),
  }),
  createdAt: isoTime(),
});

export const competitorUsage = z.object({ used: z.int(), limit: z.int() });

export const competitorsReport = z.object({
  window: metricWindow,
  brand: z.object({ name: z.string(), websiteUrl: z.string(), ...subjectNumbers }),
  competitors: z.array(competitor),
  usage: competitorUsage,
});
