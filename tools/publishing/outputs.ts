import { z } from 'zod';
import { DESTINATION_KINDS } from '../../src/publishing/cms/kinds.js';
import { DELIVERY_OUTCOMES } from '../../src/publishing/deliveries.js';
import { isoTime } from '../fields.js';

// What the publishing operations answer.

export const destination = z.object({
  destinationId: z.string(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS).describe('webhook, or the CMS written to.'),
  endpointUrl: z.string().describe("The webhook's endpoint; for a CMS kind, the CMS's API address."),
  siteUrl: z.string().nullable(),
  publishAs: z.enum(['publish', 'draft']),
  active: z.boolean(),
  role: z.enum(['site', 'feed']).describe('site: has a siteUrl and may be the active one; feed: receives copies.'),
  lastDelivery: z
    .object({
      at: isoTime(),
      outcome: z.enum(DELIVERY_OUTCOMES).nullable(),
      statusCode: z.int().nullable(),
      url: z.string().nullable().describe('The address the receiver reported for the article.'),
      statusMessage: z.string().nullable(),
      note: z.string().nullable(),
    })
    .nullable(),
  createdAt: isoTime(),
  settings: z.record(z.string(), z.string()).nullable().describe("A CMS kind's settings, each secret shown as its last 4 characters only; null for a webhook."),
});

/** One entry of the delivery log. */
export const delivery = z.object({
  deliveryId: z.string(),
  destinationId: z.string(),
  destinationName: z.string(),
  event: z.enum(['article.published', 'article.updated', 'test']),
  contentId: z.string().nullable().describe('null for a test event.'),
  state: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z.int(),
  outcome: z.enum(DELIVERY_OUTCOMES).nullable().describe('null while pending or when cancelled.'),
  statusCode: z.int().nullable(),
  url: z.string().nullable().describe('The address the receiver reported.'),
  error: z.string().nullable(),
  createdAt: isoTime(),
  completedAt: isoTime().nullable().describe('When it was delivered, failed or cancelled.'),
});

const author = z.object({ name: z.string(), bio: z.string().optional(), linkedinUrl: z.string().optional() });

/** A published article as the headless Content API gives it. */
export const publishedArticle = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  metaTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  html: z.string().nullable(),
  markdown: z.string().nullable(),
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  schemaJsonLd: z.string().nullable(),
  url: z.string().nullable(),
  canonicalUrl: z.string().nullable(),
  language: z.string(),
  author: author.nullable(),
  categoryName: z.string().nullable(),
  keywords: z.array(z.string()),
  featuredImage: z.object({ url: z.string(), altText: z.string() }).nullable().describe('Set with update_article_meta; altText defaults to the title.'),
  publishedAt: isoTime().nullable(),
  updatedAt: isoTime(),
});

export const articlesPage = z.object({
  article: publishedArticle.optional().describe('With slug: that article.'),
  articles: z.array(publishedArticle).optional().describe('Without slug: a page, newest first.'),
  page: z.int().optional(),
  limit: z.int().optional(),
  total: z.int().optional(),
  nextPage: z.int().nullable().optional(),
  etag: z.string().describe('Also the ETag header; send it as If-None-Match for a 304.'),
});
