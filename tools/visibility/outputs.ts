import { z } from 'zod';
import { isoTime } from '../fields.js';

// Records the visibility and analytics operations share.

export const engineName = z.enum(['chatgpt', 'perplexity', 'gemini', 'claude', 'google_ai_overview', 'copilot']);
export const mentionResult = z.enum(['cited', 'mentioned', 'none', 'failed']);

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
