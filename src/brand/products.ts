import type { Selectable } from 'kysely';
import type { BrandProductsTable } from '../../db/schema.js';
import { NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { toJson } from '../shared/json.js';
import { productRecord } from './records.js';
import type { BrandScope } from './scope.js';
import { requireOnCreate, writeMode, type RecordShape } from './writeMode.js';

export const PRODUCT_CATEGORIES = ['core_product', 'add_on', 'service', 'product'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export interface ProductFields {
  name?: string;
  description?: string;
  /** An empty string clears it. */
  url?: string;
  features?: string[];
  /** An empty string clears it. */
  pricing?: string;
  category?: ProductCategory;
  usps?: string[];
}

export interface ProductWrite extends ProductFields {
  productId?: string;
  del?: boolean;
}

const PRODUCT: RecordShape<keyof ProductFields> = {
  noun: 'product',
  idField: 'productId',
  fields: ['name', 'description', 'url', 'features', 'pricing', 'category', 'usps'],
};

type ProductColumns = Omit<Selectable<BrandProductsTable>, 'id' | 'workspace_id' | 'created_at' | 'updated_at'>;

/** The stored columns once the sent fields are applied: a field left out keeps its value, a list replaces the stored one. */
function applyFields(base: ProductColumns, fields: ProductFields): ProductColumns {
  return {
    name: fields.name ?? base.name,
    description: fields.description ?? base.description,
    url: fields.url === undefined ? base.url : fields.url || null,
    features: fields.features === undefined ? base.features : toJson(fields.features),
    pricing: fields.pricing === undefined ? base.pricing : fields.pricing || null,
    category: fields.category ?? base.category,
    usps: fields.usps === undefined ? base.usps : toJson(fields.usps),
  };
}

/** Creates (no productId), updates (productId and fields) or deletes (productId and del: true) one product. */
export async function writeBrandProduct(scope: BrandScope, input: ProductWrite) {
  const { db, workspaceId } = scope;
  const mode = writeMode(PRODUCT, input.productId, input.del, input);
  const now = scope.clock.now();

  if (mode.action === 'delete') {
    const result = await db.deleteFrom('brand_products').where('id', '=', mode.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError('product', mode.id);
    return { action: 'deleted' as const, productId: mode.id };
  }

  if (mode.action === 'update') {
    const existing = await db.selectFrom('brand_products').selectAll().where('id', '=', mode.id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (existing === undefined) throw new NotFoundError('product', mode.id);
    const columns = applyFields(existing, input);
    await db
      .updateTable('brand_products')
      .set({ ...columns, updated_at: now })
      .where('id', '=', mode.id)
      .where('workspace_id', '=', workspaceId)
      .execute();
    return { action: 'updated' as const, productId: mode.id, product: productRecord({ ...existing, ...columns, updated_at: now }) };
  }

  requireOnCreate(PRODUCT, input, ['name', 'description', 'category']);
  const empty: ProductColumns = { name: input.name, description: input.description, category: input.category, url: null, features: '[]', pricing: null, usps: '[]' };
  const row: Selectable<BrandProductsTable> = { id: newId('prd'), workspace_id: workspaceId, ...applyFields(empty, input), created_at: now, updated_at: now };
  await db.insertInto('brand_products').values(row).execute();
  return { action: 'created' as const, productId: row.id, product: productRecord(row) };
}
