import { z } from 'zod';
import { cmsKind, lastFour, type CmsConstructor } from '../../publishing/cms/constructor.js';
import { declareProvider } from '../kit/declaration.js';
import { WORDPRESS_LABEL, WordPressDestination, type WordPressCredentials, type WordPressSettings } from './restApi.js';

/** create_destination's `wordpress` object. */
const wordpressInput = z.strictObject({
  username: z.string().trim().min(1).max(60).describe('The login name Sightline publishes as.'),
  applicationPassword: z
    .string()
    .trim()
    .min(16)
    .max(100)
    .describe('An application password of that account (Users → Profile), spaces and all; not the login password.'),
  postType: z.enum(['posts', 'pages']).default('posts').describe('What the articles become.'),
});

/**
 * WordPress as a destination kind: each workspace connects its own site with an account's application password, so
 * there is nothing for the operator to set.
 */
export const WORDPRESS = declareProvider({
  id: 'wordpress',
  family: 'cms',
  label: WORDPRESS_LABEL,
  turnedOnBy: [],
  settings: [],
  create: ((connection, deps) => new WordPressDestination(connection, deps)) satisfies CmsConstructor<WordPressSettings, WordPressCredentials>,
  read(): object {
    return {};
  },
});

/** The publishing area's view of the kind (src/publishing/cms/kinds.ts lists it). */
export const WORDPRESS_KIND = cmsKind({
  label: WORDPRESS_LABEL,
  input: wordpressInput,
  // The conventional root; the one the site announces is found by the check and kept in the settings.
  endpointOf: (siteUrl) => `${siteUrl.replace(/\/+$/, '')}/wp-json/`,
  split: (input) => ({
    settings: { username: input.username, postType: input.postType, restRoot: null },
    credentials: { applicationPassword: input.applicationPassword },
  }),
  storedSettings: z.object({ username: z.string(), postType: z.enum(['posts', 'pages']), restRoot: z.string().nullable() }),
  storedCredentials: z.object({ applicationPassword: z.string() }),
  masked: (settings, credentials) => ({ username: settings.username, postType: settings.postType, applicationPassword: lastFour(credentials.applicationPassword) }),
  create: WORDPRESS.create,
});
