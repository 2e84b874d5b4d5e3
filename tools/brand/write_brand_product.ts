import { z } from 'zod';
import { PRODUCT_CATEGORIES, writeBrandProduct } from '../../src/brand/products.js';
import { defineTool } from '../define.js';
import { productWrite } from './outputs.js';
import { httpUrlOrEmpty, recordId, textList } from '../fields.js';

export default defineTool({
  operationId: 'write_brand_product',
  method: 'POST',
  path: '/api/v1/brand/product',
  scope: 'write:content',
  cap: 20,
  description:
    'Create, update or delete one product the brand sells; articles mention and link these. Create: no productId; name, description and category required. ' +
    'Update: productId and the fields to change. Delete: productId and del: true, nothing else. Lists replace the stored ones. An unknown productId is 404.',
  annotations: { title: 'Write brand product', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    productId: recordId().optional().describe('Leave out to create.'),
    del: z.boolean().optional().describe('true: delete it.'),
    name: z.string().trim().min(1).max(200).optional().describe('Product name.'),
    description: z.string().trim().min(1).max(2000).optional().describe('What the product does.'),
    url: httpUrlOrEmpty().optional().describe('Product page; an empty string clears it.'),
    features: textList(30, 200).optional().describe('Features.'),
    pricing: z.string().trim().max(200).optional().describe('As a person would say it ("from $49 a month"); an empty string clears it.'),
    category: z.enum(PRODUCT_CATEGORIES).optional().describe('Kind of product.'),
    usps: textList(20, 300).optional().describe('Unique selling points.'),
  }),
  output: productWrite,
  confirm: 'none',
  handler: (ctx, input) => writeBrandProduct(ctx, input),
});
