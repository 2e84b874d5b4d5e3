import { z } from 'zod';
import { readBrand } from '../../src/brand/readBrand.js';
import { defineTool } from '../define.js';
import { brand } from './outputs.js';

export default defineTool({
  operationId: 'get_brand',
  method: 'GET',
  path: '/api/v1/brand',
  scope: 'read:content',
  cap: 60,
  description:
    "Read the workspace's brand memory in one call: identity, profile (tone, colors, locale, scheduling), links, products, buyer profiles (ICPs) and writing guidelines. " +
    'Call it before changing brand data: writes replace lists, so send back the full updated list.',
  annotations: { title: 'Get brand memory', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}),
  output: brand,
  confirm: 'none',
  // readBrand is one statement (the brand and its lists together): agents call this before most writes.
  transaction: 'none',
  handler: (ctx) => readBrand(ctx.db, ctx.workspaceId),
});
