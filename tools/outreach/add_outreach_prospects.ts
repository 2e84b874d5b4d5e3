import { z } from 'zod';
import { addProspects } from '../../src/outreach/prospects.js';
import { defineTool } from '../define.js';
import { httpUrl } from '../fields.js';

export default defineTool({
  operationId: 'add_outreach_prospects',
  method: 'POST',
  path: '/api/v1/outreach/prospects',
  scope: 'write:content',
  cap: 10,
  description:
    "Add the owner's own outreach prospects (up to 500 a call; `sightline outreach import file.csv` sends a CSV in chunks). Each is a url or a domain, with an optional contact and note. " +
    'A domain already in the pipeline is skipped and keeps its stage; the answer says what was added and skipped.',
  annotations: { title: 'Add outreach prospects', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    prospects: z
      .array(
        z
          .strictObject({
            url: httpUrl().max(2000).optional().describe('A page on the site (give url or domain).'),
            domain: z.string().trim().min(1).max(253).optional().describe('The site\'s domain, such as example.com (give url or domain).'),
            contactEmail: z.email().max(254).optional().describe('Who to write to there.'),
            contactName: z.string().trim().max(200).optional().describe("That person's name."),
            note: z.string().trim().max(500).optional().describe('Why it is a prospect; kept in its reason.'),
          })
          .superRefine((item, issues) => {
            if ((item.url === undefined) === (item.domain === undefined)) issues.addIssue({ code: 'custom', path: ['domain'], message: 'give exactly one of url and domain' });
          })
          // The rule above is not in the JSON Schema, so the generated reference takes its example from here.
          .meta({ examples: [{ domain: 'example.com' }] }),
      )
      .min(1)
      .max(500)
      .describe('The prospects to add.'),
  }),
  output: z.object({
    added: z.int(),
    skipped: z.int(),
    prospects: z.array(
      z.object({
        domain: z.string(),
        prospectId: z.string().nullable(),
        added: z.boolean(),
        skipped: z.enum(['exists', 'duplicate', 'own_site']).nullable().describe('Why it was skipped: already a prospect, repeated in this list, or the workspace\'s own site.'),
      }),
    ),
  }),
  confirm: 'none',
  handler: (ctx, input) => addProspects(ctx.db, ctx.clock, ctx.workspaceId, input.prospects),
});
