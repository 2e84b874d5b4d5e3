import { z } from 'zod';
import { writeBrandIcp } from '../../src/domain/brand/icps.js';
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
    'Create, update or delete one buyer profile (ICP); articles are written for these readers. ' +
    'Create: leave out profileId and send title, industry and demographics. Update: send profileId and only the fields to change. ' +
    'Delete: send profileId and del: true and nothing else. Lists and demographics replace the stored ones; an empty string clears companySize. ' +
    "industry is the buyer's industry in free text. demographics has free keys (e.g. ageRange, seniority, department) with text values. " +
    'An unknown profileId is 404.',
  annotations: { title: 'Write brand buyer profile', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    profileId: recordId().optional().describe('The buyer profile to update or delete; leave out to create one.'),
    del: z.boolean().optional().describe('true with profileId: delete the buyer profile. Send no other field with it.'),
    title: z.string().trim().min(1).max(200).optional().describe('Who the buyer is, e.g. "Head of marketing at a B2B SaaS". Required to create.'),
    industry: z.string().trim().min(1).max(200).optional().describe("The buyer's industry in free text. Required to create."),
    companySize: z.string().trim().max(100).optional().describe('Company size in free text, e.g. "50-200 employees"; an empty string clears it.'),
    painPoints: textList(20, 300).optional().describe('Problems the buyer has; replaces the stored list.'),
    buyingTriggers: textList(20, 300).optional().describe('Events that make the buyer look for a solution; replaces the stored list.'),
    objections: textList(20, 300).optional().describe('Reasons the buyer hesitates; replaces the stored list.'),
    preferredChannels: textList(20, 300).optional().describe('Where the buyer looks for information; replaces the stored list.'),
    demographics: demographics
      .optional()
      .describe(`Free keys (e.g. ageRange, seniority, department) with text values of up to 200 characters, at most ${MAX_DEMOGRAPHIC_KEYS} keys; replaces the stored object. Required to create.`),
  }),
  output: buyerProfileWrite,
  confirm: 'none',
  handler: (ctx, input) => writeBrandIcp(ctx, input),
});
