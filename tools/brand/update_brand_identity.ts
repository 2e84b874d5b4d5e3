import { z } from 'zod';
import { INDUSTRY_NAMES, updateBrandIdentity } from '../../src/brand/identity.js';
import { defineTool } from '../define.js';
import { identity } from './outputs.js';
import { httpUrl, textList, webUrl, isoTime } from '../fields.js';

const author = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('Author name as shown on articles.'),
  bio: z.string().trim().max(1000).optional().describe('Short author bio.'),
  linkedinUrl: webUrl(/^https$/, 'must be an absolute https URL such as https://www.linkedin.com/in/name').optional().describe('LinkedIn profile, https.'),
});

export default defineTool({
  operationId: 'update_brand_identity',
  method: 'POST',
  path: '/api/v1/brand',
  scope: 'write:content',
  cap: 20,
  description:
    "Change the brand's identity: name, industry, sub-industry, product description, authors, style references, aliases, exclusions; " +
    'only the fields sent change. Call get_brand first: each list replaces the stored one, so send the full updated list. ' +
    'Changing industry without subIndustry clears the sub-industry. websiteUrl cannot be changed. ' +
    'A real name change queues the brand-mention search, at most once a day.',
  annotations: { title: 'Update brand identity', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    name: z.string().trim().min(1).max(200).optional().describe('Brand name.'),
    industry: z.enum(INDUSTRY_NAMES).optional().describe("Industry from the dashboard's list."),
    // No length limits here: the domain checks the value against the industry's list, and limits would turn the nullable type into an anyOf.
    subIndustry: z
      .string()
      .trim()
      .nullable()
      .optional()
      .describe('One of the industry\'s sub-industries (a wrong one is refused with the list); null or an empty string clears it.'),
    productDescription: z.string().trim().max(5000).optional().describe('What the brand sells; an empty string clears it.'),
    authors: z.array(author).max(20).optional().describe('Article authors.'),
    styleReferenceUrls: z.array(httpUrl()).max(20).optional().describe('Pages whose writing style to follow.'),
    brandAliases: textList(50, 100).optional().describe('Other names the brand goes by.'),
    brandExclusions: textList(50, 100).optional().describe('Names that look like the brand but are not it.'),
    websiteUrl: z
      .never({ error: 'cannot be changed: the website URL is fixed when the workspace is created' })
      .optional()
      .describe('Not accepted: fixed when the workspace is created.'),
  }),
  output: z.object({ identity, mentionSearch: z.object({ queued: z.boolean(), requestedAt: isoTime().optional(), reason: z.string().optional().describe('Why it was not queued.') }) }),
  confirm: 'none',
  handler: (ctx, input) => updateBrandIdentity(ctx, input),
});
