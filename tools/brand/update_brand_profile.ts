import { z } from 'zod';
import { TONES, updateBrandProfile } from '../../src/brand/profile.js';
import { defineTool } from '../define.js';
import { profile } from './outputs.js';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export default defineTool({
  operationId: 'update_brand_profile',
  method: 'POST',
  path: '/api/v1/brand/profile',
  scope: 'write:content',
  cap: 20,
  description:
    "Change the brand's voice and settings: tone, colors, default locale, scheduling, local-business facts; only the fields sent change. " +
    'Use it when the user asks for a different tone, brand colors, content language or publishing rhythm. ' +
    'Colors are stored upper-cased and defaultLocale in canonical form (en-us becomes en-US).',
  annotations: { title: 'Update brand profile', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    tone: z.enum(TONES).optional().describe('Writing tone.'),
    primaryColor: z.string().regex(HEX_COLOR, 'must be a hex color of the form #RRGGBB').optional().describe('#RRGGBB.'),
    secondaryColor: z.string().regex(HEX_COLOR, 'must be a hex color of the form #RRGGBB').optional().describe('#RRGGBB.'),
    defaultLocale: z.string().trim().min(1).max(35).optional().describe('Language articles are written in, a supported BCP-47 tag such as en, de-DE.'),
    flexibleScheduling: z.boolean().optional().describe('true: up to 5 articles a day, and planned articles may be moved.'),
    localBusiness: z.boolean().optional().describe('Serves customers in a local area.'),
    serviceArea: z.string().trim().max(100).optional().describe('Area a local business serves; an empty string clears it.'),
  }),
  output: z.object({ profile }),
  confirm: 'none',
  handler: (ctx, input) => updateBrandProfile(ctx, input),
});
