import { z } from 'zod';
import { normaliseDomain } from '../../src/outreach/prospects.js';
import { setSuppression } from '../../src/outreach/suppressions.js';
import { defineTool } from '../define.js';
import { suppressionOutput } from './outputs.js';

const email = z.email();

/** An email address, or `*@domain` for every address of a domain. */
function suppressible(value: string): boolean {
  if (!value.startsWith('*@')) return email.safeParse(value).success;
  const domain = value.slice(2).toLowerCase();
  return normaliseDomain(domain) === domain;
}

export default defineTool({
  operationId: 'set_outreach_suppression',
  method: 'POST',
  path: '/api/v1/outreach/suppressions',
  scope: 'write:backlinks',
  cap: 30,
  description: 'Add an address to the outreach suppression list, or remove it.',
  annotations: { title: 'Set outreach suppression', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    address: z.string().trim().min(1).max(254).refine(suppressible, 'must be an email address or *@domain').describe('Email or *@domain.').meta({ examples: ['someone@example.com'] }),
    suppressed: z.boolean().describe('true adds, false removes.'),
  }),
  output: z.object({
    address: z.string(),
    suppressed: z.boolean(),
    changed: z.boolean().describe('false when it already stood so.'),
    suppression: suppressionOutput.nullable().describe('The row now; an existing row keeps its reason.'),
    removed: suppressionOutput.nullable().describe('The row taken off.'),
  }),
  confirm: 'none',
  handler: (ctx, input) => setSuppression(ctx.db, ctx.clock, ctx.workspaceId, input),
});
