import { z } from 'zod';
import { draftBuyerProfile } from '../../src/brand/icpDrafts.js';
import { requireWriter } from '../../src/writer/required.js';
import { defineTool } from '../define.js';
import { buyerProfileDraft } from './outputs.js';

const MAX_DEMOGRAPHIC_KEYS = 30;

// Not trimmed: given values come back exactly as sent, empty ones included.
const givenText = (max: number, what: string) => z.string().max(max).optional().describe(`${what}.`);
const givenList = (what: string) =>
  z.array(z.string().max(300)).max(20).optional().describe(`${what}.`);

const given = z.strictObject({
  title: givenText(200, 'Who the buyer is'),
  industry: givenText(200, "The buyer's industry"),
  companySize: givenText(100, 'Company size'),
  painPoints: givenList('Problems the buyer has'),
  buyingTriggers: givenList('Events that make the buyer look for a solution'),
  objections: givenList('Reasons the buyer hesitates'),
  preferredChannels: givenList('Where the buyer looks for information'),
  demographics: z
    .object({})
    .catchall(z.string().max(200))
    .refine((value) => Object.keys(value).length <= MAX_DEMOGRAPHIC_KEYS, `must have at most ${MAX_DEMOGRAPHIC_KEYS} keys`)
    .optional()
    .describe('Free keys (e.g. ageRange, seniority) with text values.'),
});

export default defineTool({
  operationId: 'draft_brand_icp',
  method: 'POST',
  path: '/api/v1/brand/icp/draft',
  scope: 'write:content',
  cap: 10,
  description:
    'Draft a buyer profile (ICP) with the writer model for the user to review; nothing is saved. Send a one-sentence describe, or a title and who (e.g. ' +
    'from suggest_brand_icps), and any fields already decided in given; those come back as sent, the model writes the rest. ' +
    'Save the reviewed draft with write_brand_icp. 400 when no writer model is configured.',
  annotations: { title: 'Draft brand buyer profile', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input: z.strictObject({
    describe: z.string().trim().min(1).max(300).optional().describe('The audience in one sentence, e.g. "IT managers at mid-sized hospitals".'),
    title: z.string().max(200).optional().describe('Kept as sent (given.title wins).'),
    who: z.string().trim().min(1).max(300).optional().describe('Who these buyers are and why they would buy.'),
    given: given.optional().describe('Fields already decided, kept as sent (empty values too).'),
  }),
  output: buyerProfileDraft,
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) => draftBuyerProfile(ctx.db, requireWriter(ctx.services.writer), ctx.workspaceId, input),
});
