import type { Selectable } from 'kysely';
import type { BrandGuidelinesTable, BrandIcpsTable, BrandProductsTable, BrandsTable } from '../../db/schema.js';
import { fromJson } from '../shared/json.js';
import { toIso } from '../shared/time.js';

export interface Author {
  name: string;
  bio?: string;
  linkedinUrl?: string;
}

export function identityRecord(brand: Selectable<BrandsTable>, websiteUrl: string) {
  return {
    name: brand.name,
    websiteUrl,
    industry: brand.industry,
    subIndustry: brand.sub_industry,
    productDescription: brand.product_description,
    authors: fromJson<Author[]>(brand.authors),
    styleReferenceUrls: fromJson<string[]>(brand.style_reference_urls),
    brandAliases: fromJson<string[]>(brand.brand_aliases),
    brandExclusions: fromJson<string[]>(brand.brand_exclusions),
  };
}

export function profileRecord(brand: Selectable<BrandsTable>) {
  return {
    tone: brand.tone,
    primaryColor: brand.primary_color,
    secondaryColor: brand.secondary_color,
    defaultLocale: brand.default_locale,
    flexibleScheduling: brand.flexible_scheduling === 1,
    localBusiness: brand.local_business === 1,
    serviceArea: brand.service_area,
  };
}

export function guidelineRecord(row: Selectable<BrandGuidelinesTable>) {
  return { guidelineId: row.id, type: row.type, avoid: row.avoid, instead: row.instead, on: row.active === 1, createdAt: toIso(row.created_at) };
}

export function productRecord(row: Selectable<BrandProductsTable>) {
  return {
    productId: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    features: fromJson<string[]>(row.features),
    pricing: row.pricing,
    category: row.category,
    usps: fromJson<string[]>(row.usps),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function icpRecord(row: Selectable<BrandIcpsTable>) {
  return {
    profileId: row.id,
    title: row.title,
    industry: row.industry,
    companySize: row.company_size,
    painPoints: fromJson<string[]>(row.pain_points),
    buyingTriggers: fromJson<string[]>(row.buying_triggers),
    objections: fromJson<string[]>(row.objections),
    preferredChannels: fromJson<string[]>(row.preferred_channels),
    demographics: fromJson<Record<string, string>>(row.demographics),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
