import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** Where the service serves the tracking loader. */
export const LOADER_PATH = '/t.js';

/** The workspace's public site id, the one its tracking tag carries. */
export async function siteIdOf(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('analytics_sites').select('site_id').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  return row.site_id;
}

/** The one tag a site adds to every page (best in <head>); `defer` keeps it from holding up the page. */
export function loaderTag(publicUrl: string, siteId: string): string {
  return `<script defer src="${publicUrl}${LOADER_PATH}" data-site="${siteId}"></script>`;
}

/**
 * The same loader as inline JavaScript, for builders that take script source rather than HTML (Webflow's registered
 * inline scripts): it adds the tag itself. The loader reads its site id from its own element, so both forms behave alike.
 */
export function loaderBootstrap(publicUrl: string, siteId: string): string {
  return `(function(d){var s=d.createElement('script');s.defer=true;s.src=${JSON.stringify(publicUrl + LOADER_PATH)};s.setAttribute('data-site',${JSON.stringify(siteId)});d.head.appendChild(s)})(document);`;
}
