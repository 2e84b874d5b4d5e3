import type { Kysely } from 'kysely';
import { preparedQuery } from '../../../db/prepared.js';
import type { Database } from '../../../db/schema.js';
import { guidelineRecord, icpRecord, identityRecord, productRecord, profileRecord, toIso } from './records.js';

type WorkspaceParam = Record<'workspaceId', string>;

const brandRow = preparedQuery((db, p: WorkspaceParam) =>
  db
    .selectFrom('brands')
    .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
    .selectAll('brands')
    .select('workspaces.website_url')
    .where('brands.workspace_id', '=', p.workspaceId),
);
const guidelineRows = preparedQuery((db, p: WorkspaceParam) =>
  db.selectFrom('brand_guidelines').selectAll().where('workspace_id', '=', p.workspaceId).orderBy('created_at').orderBy('id'),
);
const productRows = preparedQuery((db, p: WorkspaceParam) =>
  db.selectFrom('brand_products').selectAll().where('workspace_id', '=', p.workspaceId).orderBy('created_at').orderBy('id'),
);
const icpRows = preparedQuery((db, p: WorkspaceParam) =>
  db.selectFrom('brand_icps').selectAll().where('workspace_id', '=', p.workspaceId).orderBy('created_at').orderBy('id'),
);

/** Loads the brand row with the workspace's immutable website URL; every workspace has one from its creation. */
export async function loadBrandRow(db: Kysely<Database>, workspaceId: string) {
  const [row] = await brandRow(db, { workspaceId });
  if (row === undefined) throw new Error(`workspace ${workspaceId} has no brand record`);
  return row;
}

/** Everything brand memory holds, in one read: what steers every article the writer produces. */
export async function readBrand(db: Kysely<Database>, workspaceId: string) {
  const [brand, guidelines, products, icps] = await Promise.all([
    loadBrandRow(db, workspaceId),
    guidelineRows(db, { workspaceId }),
    productRows(db, { workspaceId }),
    icpRows(db, { workspaceId }),
  ]);
  const productRecords = products.map(productRecord);
  return {
    identity: identityRecord(brand, brand.website_url),
    profile: profileRecord(brand),
    // The links articles may point readers to: the site itself and every product page on record.
    links: [
      { label: 'Website', url: brand.website_url, kind: 'website' },
      ...productRecords.filter((p) => p.url !== null).map((p) => ({ label: p.name, url: p.url, kind: 'product' })),
    ],
    products: productRecords,
    buyerProfiles: icps.map(icpRecord),
    guidelines: guidelines.map(guidelineRecord),
    meta: { reviewed: brand.reviewed_at !== null, reviewedAt: toIso(brand.reviewed_at), updatedAt: toIso(brand.updated_at) },
  };
}
