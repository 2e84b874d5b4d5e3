import { z } from 'zod';
import { listLeads } from '../../src/analytics/leads.js';
import { VISIT_SOURCES } from '../../src/analytics/referrers.js';
import { defineTool } from '../define.js';
import { isoTime, pageFields, pageNumber, pageSize } from '../fields.js';

export default defineTool({
  operationId: 'list_leads',
  method: 'GET',
  path: '/api/v1/leads',
  scope: 'read:leads',
  cap: 'plan',
  description:
    'Leads captured by the tracking loader (form submits on the site), newest first: contact fields, page, referrer, UTM tags, first-touch source and the AI engine when AI-referred.',
  annotations: { title: 'List leads', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    page: pageNumber(),
    limit: pageSize(100, 25, 'Leads'),
  }),
  output: z.object({
    definition: z.string(),
    ...pageFields,
    leads: z.array(
      z.object({
        leadId: z.string(),
        createdAt: isoTime(),
        email: z.string().nullable(),
        name: z.string().nullable(),
        fields: z.record(z.string(), z.string()).describe('The other fields submitted (never passwords, card numbers or hidden fields).'),
        form: z.string().nullable(),
        page: z.object({ path: z.string(), url: z.string() }),
        referrer: z.string().nullable().describe("The session's referring host."),
        utm: z.object({ source: z.string().nullable(), medium: z.string().nullable(), campaign: z.string().nullable() }),
        firstTouch: z.object({ source: z.enum(VISIT_SOURCES), engine: z.string().nullable() }),
        aiEngine: z.string().nullable(),
      }),
    ),
  }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => listLeads(ctx.db, ctx.workspaceId, input),
});
