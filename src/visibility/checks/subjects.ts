import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { fromJson } from '../../shared/json.js';
import { domainOf } from '../../shared/urls.js';
import type { Subject } from './classify.js';

/** The subject id of the workspace's own brand in answer_mentions and visibility_daily. */
export const BRAND_SUBJECT = 'brand';

export interface WorkspaceSubjects {
  /** The brand first, then every tracked (not removed) competitor, oldest first. */
  subjects: Subject[];
  /** The brand's website host without `www.`. */
  brandDomain: string;
  locale: string;
}

/**
 * Who answers are classified for. The brand goes by its name, brandAliases, product names and its bare domain, minus
 * brandExclusions; a competitor by its name, aliases and bare domain.
 */
export async function loadSubjects(db: Kysely<Database>, workspaceId: string): Promise<WorkspaceSubjects> {
  const [brand, products, competitors] = await Promise.all([
    db
      .selectFrom('brands')
      .innerJoin('workspaces', 'workspaces.id', 'brands.workspace_id')
      .select(['brands.name', 'brands.brand_aliases', 'brands.brand_exclusions', 'brands.default_locale', 'workspaces.website_url'])
      .where('brands.workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow(),
    db.selectFrom('brand_products').select('name').where('workspace_id', '=', workspaceId).orderBy('created_at').execute(),
    db
      .selectFrom('competitors')
      .select(['id', 'name', 'domain', 'aliases'])
      .where('workspace_id', '=', workspaceId)
      .where('removed_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const brandDomain = domainOf(brand.website_url) ?? '';
  return {
    brandDomain,
    locale: brand.default_locale,
    subjects: [
      {
        id: BRAND_SUBJECT,
        name: brand.name,
        domains: [brandDomain],
        names: [brand.name, ...fromJson<string[]>(brand.brand_aliases), ...products.map((p) => p.name), brandDomain],
        exclusions: fromJson<string[]>(brand.brand_exclusions),
      },
      ...competitors.map((c) => ({
        id: c.id,
        name: c.name,
        domains: [c.domain],
        names: [c.name, ...fromJson<string[]>(c.aliases), c.domain],
        exclusions: [],
      })),
    ],
  };
}
