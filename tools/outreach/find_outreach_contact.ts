import { z } from 'zod';
import { findOutreachContact } from '../../src/outreach/contacts/findContact.js';
import { defineTool } from '../define.js';
import { recordId } from '../fields.js';
import { prospectOutput } from './outputs.js';

export default defineTool({
  operationId: 'find_outreach_contact',
  method: 'POST',
  path: '/api/v1/outreach/find-contact',
  scope: 'write:content',
  cap: 5,
  description:
    "Find who to write to at a prospect and store it on the prospect: Hunter's API when the operator configured it (HUNTER_API_KEY; firstName and lastName look for that person), " +
    "else or when it finds nothing, addresses on the prospect's /contact, /contact-us and /about pages whose domain takes mail. found: false keeps the contact it had.",
  annotations: { title: 'Find outreach contact', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.strictObject({
    prospectId: recordId().describe('The prospect (prospectId from list_outreach_prospects).'),
    firstName: z.string().trim().min(1).max(100).optional().describe('A person to look for (with lastName; Hunter only).'),
    lastName: z.string().trim().min(1).max(100).optional().describe('Their last name (with firstName).'),
  }),
  output: z.object({
    found: z.boolean(),
    hunterConfigured: z.boolean(),
    tried: z.array(z.object({ source: z.enum(['hunter', 'site']), found: z.boolean(), note: z.string().nullable().describe('Why nothing was found there.') })),
    prospect: prospectOutput,
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => findOutreachContact(ctx.db, ctx.clock, ctx.services.contacts, ctx.workspaceId, input),
});
