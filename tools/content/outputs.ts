import { z } from 'zod';
import { isoTime } from '../fields.js';
import { articleStatus } from '../queries/outputs.js';

// What the content operations answer.

export const deliveries = z.array(
  z.object({
    deliveryId: z.string(),
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
