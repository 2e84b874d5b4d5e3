import { z } from 'zod';
import { cmsKind, lastFour, type CmsConstructor } from '../../publishing/cms/constructor.js';
import { declareProvider } from '../kit/declaration.js';
import { ADMIN_API_KEY, GHOST_LABEL, GhostDestination, type GhostCredentials } from './adminApi.js';

/** create_destination's `ghost` object. */
const ghostInput = z.strictObject({
  adminApiKey: z
    .string()
    .trim()
    .regex(ADMIN_API_KEY, 'must be the Admin API key Ghost shows for a custom integration (Settings → Integrations): id:secret')
    .describe('Admin API key of a custom integration (Ghost → Settings → Integrations).'),
});

/**
 * Ghost as a destination kind: each workspace connects its own site with an integration's Admin API key, so there is
 * nothing for the operator to set.
 */
export const GHOST = declareProvider({
  id: 'ghost',
  family: 'cms',
  label: GHOST_LABEL,
  turnedOnBy: [],
  settings: [],
  create: ((connection, deps) => new GhostDestination(connection, deps)) satisfies CmsConstructor<Record<string, never>, GhostCredentials>,
  read(): object {
    return {};
  },
});

/** The publishing area's view of the kind (src/publishing/cms/kinds.ts lists it). */
export const GHOST_KIND = cmsKind({
  label: GHOST_LABEL,
  input: ghostInput,
  endpointOf: (siteUrl) => `${siteUrl.replace(/\/+$/, '')}/ghost/api/admin/`,
  split: (input) => ({ settings: {}, credentials: { adminApiKey: input.adminApiKey } }),
  storedSettings: z.object({}).transform((): Record<string, never> => ({})),
  storedCredentials: z.object({ adminApiKey: z.string() }),
  masked: (_settings, credentials) => ({ adminApiKey: lastFour(credentials.adminApiKey) }),
  create: GHOST.create,
});
