import { z } from 'zod';
import { isoTime } from '../fields.js';

// The records brand operations answer with, declared once for all of them.

export const identity = z.object({
  name: z.string(),
  websiteUrl: z.string(),
  industry: z.string().nullable(),
  subIndustry: z.string().nullable(),
  productDescription: z.string().nullable(),
  authors: z.array(z.object({ name: z.string(), bio: z.string().optional(), linkedinUrl: z.string().optional() })),
  styleReferenceUrls: z.array(z.string()),
  brandAliases: z.array(z.string()),
  brandExclusions: z.array(z.string()),
});

export const profile = z.object({
  tone: z.string().nullable(),
  primaryColor: z.string().nullable(),
  secondaryColor: z.string().nullable(),
  defaultLocale: z.string(),
  flexibleScheduling: z.boolean(),
  localBusiness: z.boolean(),
  serviceArea: z.string().nullable(),
});

export const guideline = z.object({
  guidelineId: z.string(),
  type: z.string(),
  avoid: z.string(),
  instead: z.string(),
  on: z.boolean(),
  createdAt: isoTime(),
});

export const product = z.object({
  productId: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string().nullable(),
  features: z.array(z.string()),
  pricing: z.string().nullable(),
  category: z.string(),
  usps: z.array(z.string()),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const buyerProfile = z.object({
  profileId: z.string(),
  title: z.string(),
  industry: z.string().nullable(),
  companySize: z.string().nullable(),
  painPoints: z.array(z.string()),
  buyingTriggers: z.array(z.string()),
  objections: z.array(z.string()),
  preferredChannels: z.array(z.string()),
  demographics: z.record(z.string(), z.string()),
  createdAt: isoTime(),
  updatedAt: isoTime(),
});

export const brand = z.object({
  identity,
  profile,
  links: z.array(z.object({ label: z.string(), url: z.string(), kind: z.enum(['website', 'product']) })),
  products: z.array(product),
  buyerProfiles: z.array(buyerProfile),
  guidelines: z.array(guideline),
  meta: z.object({ reviewed: z.boolean(), reviewedAt: isoTime().nullable(), updatedAt: isoTime() }),
});

export const guidelineAnswer = z.object({ guidelineId: z.string(), guideline });

export const buyerProfileDraft = z.object({
  draft: z.object({
    title: z.string(),
    industry: z.string(),
    companySize: z.string(),
    painPoints: z.array(z.string()),
    buyingTriggers: z.array(z.string()),
    objections: z.array(z.string()),
    preferredChannels: z.array(z.string()),
    demographics: z.record(z.string(), z.string()),
  }),
  kept: z.array(z.string()).describe('Fields taken as sent.'),
  filled: z.array(z.string()).describe('Fields the writer model wrote.'),
  saved: z.literal(false),
});

const writeAction = z.enum(['created', 'updated', 'deleted']);

export const productWrite = z.object({
  action: writeAction,
  productId: z.string(),
  product: product.optional().describe('Left out on delete.'),
});

export const buyerProfileWrite = z.object({
  action: writeAction,
  profileId: z.string(),
  buyerProfile: buyerProfile.optional().describe('Left out on delete.'),
});
