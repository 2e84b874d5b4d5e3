import { z } from 'zod';
import { writeBrandIcp } from '../../src/brand/icps.js';
import { defineTool } from '../define.js';
import { buyerProfileWrite } from './outputs.js';
import { recordId, textList } from '../fields.js';

const MAX_DEMOGRAPHIC_KEYS = 30;
const MAX_DEMOGRAPHIC_KEY_CHARS = 50;

// An object with a catch-all rather than z.record: a record's type error would read "must be record".
const demographics = z
  .object({})
  .catchall(z.string().trim().max(200))
  .refine((value) => Object.keys(value).length <= MAX_DEMOGRAPHIC_KEYS, `must have at most ${MAX_DEMOGRAPHIC_KEYS} keys`)
  .refine(
    (value) => Object.keys(value).every((key) => key.trim() !== '' && key.length <= MAX_DEMOGRAPHIC_KEY_CHARS),
    `keys must be 1 to ${MAX_DEMOGRAPHIC_KEY_CHARS} characters and not blank`,
  );

export default defineTool({
  operationId: 'write_brand_icp',
  method: 'POST',
  path: '/api/v1/brand/icp',
  scope: 'write:content',
  cap: 20,
  description:
    'Create, update or delete one buyer profile (ICP); articles are written for these readers. Create: no profileId; ' +
    'title, industry and demographics required. Update: profileId and the fields to change. Delete: profileId and del: true, nothing else. ' +
    'Lists and demographics replace the stored ones. An unknown profileId is 404.',
  annotations: { title: 'Write brand buyer profile', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    profileId: recordId().optional().describe('Leave out to create.'),
    del: z.boolean().optional().describe('true: delete it.'),
    title: z.string().trim().min(1).max(200).optional().describe('Who the buyer is, e.g. "Head of marketing at a B2B SaaS".'),
    industry: z.string().trim().min(1).max(200).optional().describe('Free text.'),
    companySize: z.string().trim().max(100).optional().describe('e.g. "50-200 employees"; an empty string clears it.'),
    painPoints: textList(20, 300).optional().describe('Problems the buyer has.'),
    buyingTriggers: textList(20, 300).optional().describe('Events that make the buyer look for a solution.'),
    objections: textList(20, 300).optional().describe('Reasons the buyer hesitates.'),
    preferredChannels: textList(20, 300).optional().describe('Where the buyer looks for information.'),
    demographics: demographics
      .optional()
      .describe('Free keys (e.g. ageRange, seniority) with text values.'),
  }),
  output: buyerProfileWrite,
  confirm: 'none',
  handler: (ctx, input) => writeBrandIcp(ctx, input),
});
