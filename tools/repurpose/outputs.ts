import { z } from 'zod';
import { REPURPOSE_CHANNELS } from '../../src/repurpose/channels.js';
import { REPURPOSE_STATES } from '../../src/repurpose/drafts.js';
import { SCHEDULER_TOOLS } from '../../src/repurpose/schedulers/scheduler.js';
import { isoTime } from '../fields.js';

/** A repurpose draft as every repurpose answer gives it. */
export const repurposeDraft = z.object({
  draftId: z.string(),
  contentId: z.string().describe('The article it was drafted from.'),
  articleTitle: z.string(),
  channel: z.enum(REPURPOSE_CHANNELS),
  posts: z.array(z.string()).describe('One post, or the parts of a thread in order.'),
  limits: z.object({ maxParts: z.int(), maxChars: z.int() }).describe("The channel's limits the parts are checked against."),
  linkUrl: z.string().describe("The article's URL with the UTM tags the posts link with."),
  state: z.enum(REPURPOSE_STATES).describe('draft (editable), queued (push waiting), pushed (in the scheduler), failed, posted.'),
  scheduler: z
    .object({
      tool: z.enum(SCHEDULER_TOOLS),
      channelId: z.string(),
      channelName: z.string().nullable(),
      scheduledFor: isoTime().nullable().describe('null: a draft in the scheduler.'),
      postId: z.string().nullable().describe("The scheduler's post id, once created."),
      postUrl: z.string().nullable(),
      pushedAt: isoTime().nullable(),
    })
    .nullable()
    .describe('Where it was pushed; null before a push.'),
  postedAt: isoTime().nullable(),
  postedUrl: z.string().nullable(),
  error: z.string().nullable().describe('Why the last push failed.'),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});
