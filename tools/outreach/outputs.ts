import { z } from 'zod';
import { OUTREACH_STAGES } from '../../src/outreach/stages.js';
import { SUPPRESSION_REASONS } from '../../src/outreach/suppressions.js';
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

export const threadMessage = z.object({
  messageId: z.string(),
  direction: z.enum(['out', 'in']).describe('out: we wrote it; in: read from the mailbox.'),
  state: z.enum(['draft', 'queued', 'sending', 'sent', 'failed', 'cancelled', 'received']),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string().describe('The text, cut at 3,000 characters.'),
  at: z.string().meta({ format: 'date-time' }).describe('Sent or received; for others, when recorded.'),
});

export const outreachDraft = z.object({
  messageId: z.string().describe('The draft: queue it with queue_outreach_send.'),
  prospectId: z.string(),
  state: z.literal('draft'),
  to: z.string().nullable().describe('The recipient; null while the prospect has no contact email.'),
  from: z.string().nullable().describe("The mailbox's address; null while no mailbox is configured."),
  subject: z.string(),
  body: z.string().describe('Without the opt-out line, which is appended when sent.'),
  inReplyTo: z.string().nullable().describe('The Message-ID answered; null for a first email.'),
  isReply: z.boolean(),
  thread: z.array(threadMessage).describe('The thread before this draft, oldest first (other drafts left out).'),
});

export const queuedSend = z.object({
  messageId: z.string(),
  prospectId: z.string(),
  state: z.literal('queued'),
  to: z.string(),
  from: z.string().describe('Name and address of the mailbox it goes out from.'),
  subject: z.string(),
  text: z.string().describe('The exact body sent, opt-out line included.'),
  inReplyTo: z.string().nullable(),
  sendAt: z.string().meta({ format: 'date-time' }).describe('Now, or the next UTC day with room under the daily cap.'),
  jobId: z.string().describe('The send job (get_job).'),
});

export const suppressionOutput = z.object({
  address: z.string().describe('Lower-cased; *@domain covers a domain.'),
  reason: z.enum(SUPPRESSION_REASONS),
  domainWide: z.boolean(),
  createdAt: isoTime(),
});

/** A message as get_outreach_thread gives it: the thread entry, with the whole body and the send's times and outcome. */
export const threadRecord = threadMessage.extend({
  to: z.string().describe("For a draft, who it would go to now ('' without a contact email)."),
  body: z.string().describe('The text; a received message is cut at 20,000 characters. A draft is without the opt-out line.'),
  queuedFor: z.string().meta({ format: 'date-time' }).nullable().describe('When a queued send goes.'),
  error: z.string().nullable().describe('Why a send failed.'),
});

/** A stored draft as update_outreach_draft answers it. */
export const savedDraft = outreachDraft.omit({ thread: true });
