import { z } from 'zod';
import { OUTREACH_STAGES } from '../../src/outreach/stages.js';
import { isoTime } from '../fields.js';

/** A prospect as every outreach answer gives it. */
export const prospectOutput = z.object({
  prospectId: z.string(),
  domain: z.string(),
  pageUrl: z.string().nullable().describe('The page that made it a prospect (the cited or ranking page), when there is one.'),
  title: z.string().nullable(),
  origin: z.enum(['competitor_citation', 'competitor_referrer', 'ranking_page', 'import']),
  reason: z.string().describe('Why it is a prospect, in words.'),
  targetUrl: z.string().nullable().describe("The workspace's page to pitch, when chosen."),
  stage: z.enum(OUTREACH_STAGES),
  stageChangedAt: isoTime(),
  contact: z
    .object({
      email: z.string(),
      name: z.string().nullable(),
      confidence: z.int().nullable().describe('0 to 100; null for a contact the owner imported.'),
      source: z.string().nullable().describe('hunter, site (read from its pages) or import.'),
      foundAt: isoTime().nullable(),
    })
    .nullable(),
  createdAt: isoTime(),
});
