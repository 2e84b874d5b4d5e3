import { z } from 'zod';
import { setProspectStage } from '../../src/outreach/prospects.js';
import { OUTREACH_STAGES } from '../../src/outreach/stages.js';
import { defineTool } from '../define.js';
import { httpUrl, recordId } from '../fields.js';
import { prospectOutput } from './outputs.js';

export default defineTool({
  operationId: 'set_outreach_status',
  method: 'POST',
  path: '/api/v1/outreach/status',
  scope: 'write:backlinks',
  cap: 30,
  description:
    'Move an outreach prospect to another stage. Allowed: identified→contacted|rejected, contacted→replied|link_placed|rejected, replied→contacted|link_placed|rejected, rejected→identified; link_placed is final. ' +
    'link_placed needs linkingUrl (the page now linking) and records a backlink that verification checks.',
  annotations: { title: 'Move outreach prospect', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    prospectId: recordId().describe('The prospect (prospectId from list_outreach_prospects).'),
    stage: z.enum(OUTREACH_STAGES).describe('The stage to move it to.'),
    linkingUrl: httpUrl().max(2000).optional().describe('With stage link_placed (required then): the page where the link now is.'),
    targetUrl: httpUrl().max(2000).optional().describe("With link_placed: the workspace's page linked to (default: the prospect's target, else the website)."),
    anchorText: z.string().trim().max(300).optional().describe('With link_placed: the link text.'),
  }),
  output: z.object({
    previousStage: z.enum(OUTREACH_STAGES),
    backlinkId: z.string().nullable().describe('The backlink row recorded for link_placed; null otherwise.'),
    prospect: prospectOutput,
  }),
  confirm: 'none',
  handler: (ctx, input) => setProspectStage(ctx.db, ctx.clock, ctx.workspaceId, input),
});
