import { z } from 'zod';
import { PRODUCT_CATEGORIES, writeBrandProduct } from '../../src/domain/brand/products.js';
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
    'Create, update or delete one product the brand sells; articles mention and link products from this list. ' +
    'Create: leave out productId and send name, description and category. Update: send productId and only the fields to change. ' +
    'Delete: send productId and del: true and nothing else. Lists (features, usps) replace the stored ones; an empty string clears url or pricing. ' +
    'category is core_product, add_on, service or product; pricing is free text as a person would say it ("from $49 a month"). ' +
    'An unknown productId is 404.',
  annotations: { title: 'Write brand product', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({
    productId: recordId().optional().describe('The product to update or delete; leave out to create one.'),
    del: z.boolean().optional().describe('true with productId: delete the product. Send no other field with it.'),
    name: z.string().trim().min(1).max(200).optional().describe('Product name. Required to create.'),
    description: z.string().trim().min(1).max(2000).optional().describe('What the product does. Required to create.'),
    url: httpUrlOrEmpty().optional().describe('Product page, an absolute http(s) URL; an empty string clears it.'),
    features: textList(30, 200).optional().describe('Features; replaces the stored list.'),
    pricing: z.string().trim().max(200).optional().describe('Price as a person would say it; an empty string clears it.'),
    category: z.enum(PRODUCT_CATEGORIES).optional().describe('Kind of product. Required to create.'),
    usps: textList(20, 300).optional().describe('Unique selling points; replaces the stored list.'),
  }),
  output: productWrite,
  confirm: 'none',
  handler: (ctx, input) => writeBrandProduct(ctx, input),
});
