import { z } from 'zod';
import { isoTime } from '../fields.js';
import { articleStatus } from '../queries/outputs.js';

// What the content operations answer.

export const deliveries = z.array(
  z.object({
    deliveryId: z.string(),
    jobId: z.string().describe('The job sending it: follow it with get_job.'),
    destinationId: z.string(),
    destinationName: z.string(),
    role: z.enum(['site', 'feed']),
    event: z.enum(['article.published', 'article.updated', 'test']),
  }),
);

export const published = z.object({
  contentId: z.string(),
  status: z.literal('published'),
  publishedAt: isoTime(),
  firstPublish: z.boolean().describe('This publish set the publish date.'),
  deliveries,
});

export const archived = z.object({
  contentId: z.string(),
  title: z.string(),
  status: z.literal('archived'),
  previousStatus: articleStatus.nullable().describe('null when it was archived already.'),
  archivedAt: isoTime(),
  alreadyArchived: z.boolean(),
  url: z.string().nullable(),
});

export const deletedTitle = z.object({
  deleted: z.literal(true),
  contentId: z.string(),
  title: z.string(),
  keyword: z.string(),
  returnedToIdeas: z.object({ queryId: z.string(), created: z.boolean() }),
});

export const hiddenIdea = z.object({
  queryId: z.string(),
  queryText: z.string(),
  hidden: z.literal(true),
  hiddenAt: isoTime(),
  stillTracked: z.literal(true),
});

export const rescheduled = z.object({ contentId: z.string(), title: z.string(), previousScheduledAt: isoTime(), scheduledAt: isoTime() });

export const committedTitles = z.object({
  created: z.int(),
  planned: z.array(z.object({ contentId: z.string(), title: z.string(), keyword: z.string(), scheduledAt: isoTime(), queryId: z.string().nullable() })),
  notPlanned: z.array(z.object({ title: z.string(), keyword: z.string(), reason: z.string() })),
});

export const titleCandidates = z.object({
  candidates: z.array(z.object({ title: z.string(), keyword: z.string() })),
  openSlots: z.int().describe('Slots still open up to the end of next month.'),
  saved: z.literal(false),
});

const weekdays = z.array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']));

export const policyView = z.object({
  policy: z.object({
    publishDays: weekdays,
    publishTime: z.string().describe('HH:MM, UTC.'),
    articlesPerDay: z.int(),
    targetWordCount: z.int(),
    includeFaq: z.boolean(),
    contentType: z.string(),
    categoryName: z.string().nullable(),
    authorName: z.string().nullable(),
    autoWrite: z.boolean(),
    autoPublish: z.boolean(),
  }),
  flexibleScheduling: z.boolean(),
  slotsPerDay: z.int().describe('Articles a day the calendar plans.'),
  autoWriteAvailable: z.boolean().describe('True once one article is confirmed live on the site.'),
  updatedAt: isoTime().nullable().describe('null until first saved.'),
});

export const capacityReport = z.object({
  months: z.array(z.object({ month: z.string().describe('YYYY-MM.'), allowance: z.int(), used: z.int(), remaining: z.int(), openSlots: z.int() })),
  nextFreeSlot: isoTime().nullable().describe('null: the calendar is full.'),
  horizonEnd: isoTime(),
  schedule: z.object({ publishDays: weekdays, publishTime: z.string(), slotsPerDay: z.int(), flexibleScheduling: z.boolean() }),
});

export const generationStarted = z.object({ contentId: z.string(), jobId: z.string(), status: z.literal('writing'), scheduledAt: isoTime() });

export const contentList = z.object({
  articles: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      status: articleStatus,
      contentType: z.string(),
      slug: z.string(),
      keyword: z.string(),
      queryId: z.string().nullable(),
      wordCount: z.int(),
      scheduledAt: isoTime(),
      publishedAt: isoTime().nullable(),
      url: z.string().nullable(),
      writing: z.boolean().describe('A write job is under way.'),
      writtenAt: isoTime().nullable(),
      lastWriteError: z.string().nullable(),
      liveConfirmedAt: isoTime().nullable(),
      archivedAt: isoTime().nullable(),
      healthScore: z.number().nullable().describe('0 to 100; null without a body.'),
      citabilityScore: z.number().nullable().describe('0 to 100; null without a body.'),
      google: z
        .object({ clicks: z.int(), impressions: z.int(), position: z.number().describe('Average position, impressions-weighted; never a rank.') })
        .nullable()
        .describe('Search Console figures of the live page.'),
    }),
  ),
});

export const internalLinks = z.object({
  contentId: z.string(),
  linkedFrom: z.int().describe('Links from published articles.'),
  sources: z.array(z.object({ contentId: z.string(), title: z.string(), url: z.string().nullable(), anchorText: z.string(), renderedAt: isoTime() })),
  linksOut: z.int(),
  targets: z.array(z.object({ url: z.string(), contentId: z.string().nullable().describe('null for a site page.'), anchorText: z.string(), renderedAt: isoTime() })),
});

export const articleMeta = z.object({
  contentId: z.string(),
  title: z.string(),
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  featuredImageUrl: z.string().nullable(),
  featuredImageAlt: z.string().nullable(),
  slug: z.string(),
  url: z.string().nullable(),
  changed: z.array(z.enum(['title', 'metaTitle', 'metaDescription', 'featuredImageUrl', 'featuredImageAlt'])),
  republished: z.boolean(),
  deliveries,
});

export const plannedIdea = z.object({
  created: z.union([z.literal(0), z.literal(1)]).describe('1: planned; 0: nothing added (see reason).'),
  contentId: z.string().optional().describe('The new article, or the one already covering the query.'),
  title: z.string().optional(),
  titleGenerated: z.boolean().optional(),
  scheduledAt: isoTime().optional(),
  queryId: z.string().optional(),
  reason: z.string().optional(),
});

const signal = z.enum(['citationGap', 'competitorCitations', 'trending', 'quickWin']);

export const contentIdeas = z.object({
  ideas: z.array(
    z.object({
      id: z.string().describe('The tracked query id.'),
      queryText: z.string(),
      suggestedTitle: z.string().nullable(),
      source: z.enum(['user', 'idea', 'returned']),
      createdAt: isoTime(),
      score: z.number().nullable().describe('0 to 100; null when nothing was measured.'),
      basedOn: z.array(signal),
      scoreNote: z.string(),
      metrics: z.object({
        citationGapRate: z.number().nullable(),
        competitorCitationRate: z.number().nullable(),
        trendingScore: z.number().nullable(),
        googlePosition: z.int().nullable(),
      }),
      rankingPage: z.string().nullable().describe('The page Google ranks.'),
      readPage: z.string().nullable().describe("Search Console's top page."),
      articleId: z.string().nullable(),
    }),
  ),
  weights: z.object({ citationGap: z.number(), competitorCitations: z.number(), trending: z.number(), quickWin: z.number() }),
  windowDays: z.int(),
});

export const optimizerReport = z.object({
  contentId: z.string(),
  title: z.string(),
  status: articleStatus,
  citability: z.object({
    score: z.number().describe('0 to 100.'),
    points: z.array(z.object({ key: z.string(), label: z.string(), weight: z.number(), met: z.boolean(), reason: z.string() })),
  }),
  health: z.object({ score: z.number().describe('0 to 100.'), issues: z.array(z.object({ check: z.string(), message: z.string() })) }),
});
