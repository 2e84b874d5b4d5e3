import { GHOST_KIND } from '../../integrations/ghost/provider.js';
import { WORDPRESS_KIND } from '../../integrations/wordpress/provider.js';
import { WEBFLOW_KIND } from '../../integrations/webflow/provider.js';
import type { CmsKind } from './constructor.js';

/**
 * Every CMS a destination can write to, by the `kind` create_destination takes. A new kind is a vendor folder under
 * src/integrations/ (its client implementing CmsDestination, its provider.ts), its input object in
 * tools/publishing/create_destination.ts, and one line here.
 */
export const CMS_KINDS = {
  ghost: GHOST_KIND,
  wordpress: WORDPRESS_KIND,
  webflow: WEBFLOW_KIND,
} as const satisfies Record<string, CmsKind>;

export type CmsKindName = keyof typeof CMS_KINDS;

export const DESTINATION_KINDS = ['webhook', ...(Object.keys(CMS_KINDS) as CmsKindName[])] as const;
export type DestinationKind = 'webhook' | CmsKindName;

export function isCmsKind(kind: string): kind is CmsKindName {
  return Object.hasOwn(CMS_KINDS, kind);
}
