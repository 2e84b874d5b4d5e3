import { z } from 'zod';
import { draftSocialReply } from '../../src/social/reply.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { socialThread } from './outputs.js';

export default defineTool({
  operationId: 'draft_social_reply',
  method: 'POST',
  path: '/api/v1/social/draft-reply',
  scope: 'write:social',
  cap: 5,
  description:
    'Draft a reply to a social thread with the writer model (answering the question first, naming the brand only where it helps, with a disclosure when it does), or store your own text. ' +
    'The source is asked first whether the thread is still open. Stored on the thread (new → drafted); a person posts it, then marks it replied.',
  annotations: { title: 'Draft a social reply', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    threadId: recordId().describe('The thread (list_social_threads).'),
    instructions: z.string().trim().min(1).max(1000).optional().describe('What the reply should say or stress.'),
    text: z.string().trim().min(1).max(5000).optional().describe('Your own reply to store instead (Bluesky: at most 300 characters).'),
  }),
  output: z.object({
    thread: socialThread,
    reply: z.string().describe('The stored draft.'),
    disclosureAdded: z.boolean().describe('A disclosure line was added because the reply names the brand without one.'),
    norms: z.array(z.string()).describe("The community's norms, for the person who posts it."),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => draftSocialReply(ctx.db, ctx.clock, ctx.services, ctx.workspaceId, input),
});
