import { z } from 'zod';
import { createSupportMessage } from '../../src/support/messages.js';
import { defineTool } from '../define.js';
import { isoTime } from '../fields.js';

export default defineTool({
  operationId: 'send_support_message',
  method: 'POST',
  path: '/api/v1/support',
  scope: 'write:content',
  cap: 3,
  description:
    'File a message to the people who run this service: a problem, question or request. ' +
    'Use it when something fails in a way the caller cannot fix, or when the user asks for support. ' +
    'Make it stand alone: what was tried, the operation and ids, the error text. No reply comes through the API; give contactEmail to be answered.',
  annotations: { title: 'Send support message', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    message: z.string().trim().min(1).max(5000).describe('The message.'),
    subject: z.string().trim().max(200).optional().describe('A short subject line.'),
    contactEmail: z.email().optional().describe('Where to send the answer; without it support cannot reply.'),
  }),
  output: z.object({ messageId: z.string(), receivedAt: isoTime() }),
  confirm: 'none',
  handler: (ctx, input) =>
    createSupportMessage(ctx.db, ctx.clock, {
      workspaceId: ctx.workspaceId,
      apiKeyId: ctx.caller.apiKeyId,
      message: input.message,
      subject: input.subject,
      contactEmail: input.contactEmail,
    }),
});
