import type { Kysely } from 'kysely';
import { jsonArrayFrom, jsonRows } from '../../db/json.js';
import { preparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { guidelineRecord, icpRecord, identityRecord, productRecord, profileRecord } from './records.js';

type WorkspaceParam = Record<'workspaceId', string>;

// Qualified: the subqueries also see the outer brands row, which has columns of the same names.
const GUIDELINE_COLUMNS = [
  'brand_guidelines.id',
  'brand_guidelines.workspace_id',
  'brand_guidelines.type',
  'brand_guidelines.avoid',
  'brand_guidelines.instead',
  'brand_guidelines.active',
  'brand_guidelines.created_at',
] as const;
const PRODUCT_COLUMNS = [
  'brand_products.id',
  'brand_products.workspace_id',
  'brand_products.name',
  'brand_products.description',
  'brand_products.url',
  'brand_products.features',
  'brand_products.pricing',
  'brand_products.category',
  'brand_products.usps',
  'brand_products.created_at',
  'brand_products.updated_at',
] as const;
const ICP_COLUMNS = [
  'brand_icps.id',
  'brand_icps.workspace_id',
  'brand_icps.title',
  'brand_icps.industry',
  'brand_icps.company_size',
  'brand_icps.pain_points',
  'brand_icps.buying_triggers',
  'brand_icps.objections',
  'brand_icps.preferred_channels',
  'brand_icps.demographics',
  'brand_icps.created_at',
  'brand_icps.updated_at',
] as const;

const brandRow = preparedQuery((db, p: WorkspaceParam) =>
  db
    .selectFrom('brands')
    .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
    .selectAll('brands')
    .select('workspaces.website_url')
    .where('brands.workspace_id', '=', p.workspaceId),
);

// The brand row and its three lists in one statement: get_brand is on the hottest path agents call.
const brandWithLists = preparedQuery((db, p: WorkspaceParam) => {
  const array = jsonArrayFrom(db);
  return db
    .selectFrom('brands')
    .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
    .selectAll('brands')
    .select('workspaces.website_url')
    .select((eb) => [
      array(
        eb.selectFrom('brand_guidelines').select(GUIDELINE_COLUMNS).whereRef('brand_guidelines.workspace_id', '=', 'brands.workspace_id').orderBy('brand_guidelines.created_at').orderBy('brand_guidelines.id'),
      ).as('guidelines'),
      array(
        eb.selectFrom('brand_products').select(PRODUCT_COLUMNS).whereRef('brand_products.workspace_id', '=', 'brands.workspace_id').orderBy('brand_products.created_at').orderBy('brand_products.id'),
      ).as('products'),
      array(
        eb.selectFrom('brand_icps').select(ICP_COLUMNS).whereRef('brand_icps.workspace_id', '=', 'brands.workspace_id').orderBy('brand_icps.created_at').orderBy('brand_icps.id'),
      ).as('icps'),
    ])
    .where('brands.workspace_id', '=', p.workspaceId);
});

/** Loads the brand row with the workspace's immutable website URL; every workspace has one from its creation. */
export async function loadBrandRow(db: Kysely<Database>, workspaceId: string) {
  const [row] = await brandRow(db, { workspaceId });
  if (row === undefined) throw new Error(`workspace ${workspaceId} has no brand record`);
  return row;
}

/** Everything brand memory holds, in one read: what steers every article the writer produces. */
export async function readBrand(db: Kysely<Database>, workspaceId: string) {
  const [brand] = await brandWithLists(db, { workspaceId });
  if (brand === undefined) throw new Error(`workspace ${workspaceId} has no brand record`);
  const productRecords = jsonRows(brand.products).map(productRecord);
  return {
    identity: identityRecord(brand, brand.website_url),
    profile: profileRecord(brand),
    // The links articles may point readers to: the site itself and every product page on record.
    links: [
      { label: 'Website', url: brand.website_url, kind: 'website' as const },
      ...productRecords.flatMap((p) => (p.url === null ? [] : [{ label: p.name, url: p.url, kind: 'product' as const }])),
    ],
    products: productRecords,
    buyerProfiles: jsonRows(brand.icps).map(icpRecord),
    guidelines: jsonRows(brand.guidelines).map(guidelineRecord),
    meta: { reviewed: brand.reviewed_at !== null, reviewedAt: toIso(brand.reviewed_at), updatedAt: toIso(brand.updated_at) },
  };
}
