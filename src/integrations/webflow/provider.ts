import { z } from 'zod';
import { declareProvider, httpUrl, readTogether, readValue, type Environment } from '../kit/declaration.js';
import { WebflowClient, type WebflowSettings } from './siteBuilder.js';
import type { WebflowConstructor } from '../../analytics/builders/constructor.js';
import { cmsKind, type CmsConstructor } from '../../publishing/cms/constructor.js';
import { WEBFLOW_CMS_LABEL, WebflowCmsDestination, type FieldMapping, type MappablePart, type WebflowCmsSettings } from './cms.js';

const APP = { names: ['WEBFLOW_CLIENT_ID', 'WEBFLOW_CLIENT_SECRET'] } as const;

export const WEBFLOW = declareProvider({
  id: 'webflow',
  family: 'site builder',
  label: 'Webflow',
  turnedOnBy: APP.names,
  settings: [
    {
      names: APP.names,
      default: '—',
      meaning: "Webflow Data Client app for `install_sitebuilder_embed` and `webflow` destinations (a CMS collection's items), with the scopes sites, custom code and CMS read and write; redirect URI `<PUBLIC_URL>/dashboard/webflow/callback`. `WEBFLOW_AUTH_URL`, `WEBFLOW_API_BASE_URL` override Webflow's endpoints",
      secrets: ['WEBFLOW_CLIENT_SECRET'],
    },
  ],
  create: ((settings, accessToken, clock) => new WebflowClient(settings, accessToken, clock)) satisfies WebflowConstructor,
  read(env: Environment): WebflowSettings | undefined {
    const app = readTogether(env, APP);
    if (app === undefined) return undefined;
    const [clientId, clientSecret] = app;
    return {
      clientId,
      clientSecret,
      authUrl: readValue(env, 'WEBFLOW_AUTH_URL', httpUrl, 'https://webflow.com/oauth/authorize'),
      apiBaseUrl: readValue(env, 'WEBFLOW_API_BASE_URL', httpUrl, 'https://api.webflow.com'),
    };
  },
});

/** A Webflow slug: lowercase letters, digits and hyphens (Webflow's rule for field and collection slugs). */
const fieldSlug = z.string().trim().regex(/^[a-z0-9][a-z0-9-]*$/, "must be the field's slug as Webflow shows it (lowercase letters, digits, hyphens)");
const PART_MEANINGS: Record<MappablePart, string> = {
  body: 'the article HTML (a Rich text field; required)',
  excerpt: 'the summary (Plain or Rich text)',
  metaTitle: 'the SEO title (Plain text)',
  metaDescription: 'the meta description (Plain text)',
  featuredImage: 'the featured image, which Webflow fetches from its URL (Image)',
  category: "the category's name (Plain text)",
  tags: 'the keywords, comma-separated (Plain text)',
  faq: 'the FAQ as question and answer pairs (Rich or Plain text)',
  schemaJsonLd: "the JSON-LD for the page head, for an embed in the collection's template (Plain text)",
};
const partField = (part: MappablePart) => fieldSlug.describe(`For ${PART_MEANINGS[part]}.`);

/** create_destination's `webflow` object: the collection and the owner's mapping of article parts to its fields. */
const webflowInput = z.strictObject({
  collectionId: z.string().trim().regex(/^[0-9a-f]{24}$/i, "must be a Webflow collection id (24 hexadecimal characters, shown in the collection's settings)").describe('The CMS collection the articles become items of.'),
  fields: z
    .strictObject({
      body: partField('body'),
      excerpt: partField('excerpt').optional(),
      metaTitle: partField('metaTitle').optional(),
      metaDescription: partField('metaDescription').optional(),
      featuredImage: partField('featuredImage').optional(),
      category: partField('category').optional(),
      tags: partField('tags').optional(),
      faq: partField('faq').optional(),
      schemaJsonLd: partField('schemaJsonLd').optional(),
    })
    .describe("The collection's field slug for each part of the article; title and slug go to Webflow's own name and slug."),
});

const mappingSchema = z.object({
  body: z.string(),
  excerpt: z.string().optional(),
  metaTitle: z.string().optional(),
  metaDescription: z.string().optional(),
  featuredImage: z.string().optional(),
  category: z.string().optional(),
  tags: z.string().optional(),
  faq: z.string().optional(),
  schemaJsonLd: z.string().optional(),
});

/**
 * Webflow's CMS as a destination kind. It writes through the workspace's Webflow connection, the one the site builder
 * made (the operator's same Data Client app, WEBFLOW_CLIENT_ID and WEBFLOW_CLIENT_SECRET, with the CMS scopes): no
 * settings of its own, and no credentials of the destination's.
 */
export const WEBFLOW_CMS = declareProvider({
  id: 'webflowCms',
  family: 'cms',
  label: WEBFLOW_CMS_LABEL,
  turnedOnBy: APP.names,
  settings: [],
  create: ((connection, deps) => new WebflowCmsDestination(connection, deps)) satisfies CmsConstructor<WebflowCmsSettings, Record<string, never>>,
  read: (env: Environment): WebflowSettings | undefined => WEBFLOW.read(env),
});

/** The publishing area's view of the kind (src/publishing/cms/kinds.ts lists it). */
export const WEBFLOW_KIND = cmsKind({
  label: WEBFLOW_CMS_LABEL,
  input: webflowInput,
  endpointOf: (_siteUrl, settings) => `https://api.webflow.com/v2/collections/${settings.collectionId}/items`,
  split: (input) => ({ settings: { collectionId: input.collectionId.toLowerCase(), fields: input.fields }, credentials: {} }),
  storedSettings: z.object({ collectionId: z.string(), fields: mappingSchema }).transform((stored): WebflowCmsSettings => ({ collectionId: stored.collectionId, fields: withoutUndefined(stored.fields) })),
  storedCredentials: z.object({}).transform((): Record<string, never> => ({})),
  masked: (settings) => ({
    collectionId: settings.collectionId,
    fields: Object.entries(settings.fields)
      .map(([part, slug]) => `${part}→${slug}`)
      .join(', '),
  }),
  create: WEBFLOW_CMS.create,
});

function withoutUndefined(mapping: z.output<typeof mappingSchema>): FieldMapping {
  return Object.fromEntries(Object.entries(mapping).filter(([, slug]) => slug !== undefined)) as FieldMapping;
}
