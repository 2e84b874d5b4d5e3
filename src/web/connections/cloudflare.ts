import express, { type Request, type RequestHandler, type Response } from 'express';
import {
  beginCdnAuthorization,
  CDN_CALLBACK_PATH,
  CDN_OAUTH_SETTINGS,
  cdnCallbackUrl,
  cdnService,
  CdnConnectError,
  completeCdnAuthorization,
  connectApiToken,
  type CdnConnection,
} from '../../analytics/cdn/connection.js';
import { queueCdnBackfill, readCdnStatus } from '../../analytics/cdn/sync.js';
import type { Membership } from '../../accounts/sessions.js';
import { type DashboardDeps, sendPage } from '../pageContext.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';
import { allowFormRedirect } from '../security.js';
import { CLOUDFLARE } from '../../integrations/cloudflare/provider.js';

/** The permissions a pasted API token needs, as Cloudflare's token editor names them. */
const TOKEN_PERMISSIONS = html`<strong>Zone → Zone → Read</strong> and <strong>Zone → Analytics → Read</strong>`;

/**
 * The Cloudflare part of the Settings page: the connection's state and, for owners, Connect (when the operator
 * registered an OAuth client) and a form to paste a scoped API token instead.
 */
export async function cdnSection(deps: DashboardDeps, res: Response, current: Membership): Promise<SafeHtml> {
  const csrf = res.locals.visit!.csrf;
  const owner = current.role === 'owner';
  const status = await readCdnStatus(deps.db, current.workspaceId);
  const heading = html`<h2>Cloudflare (AI crawlers)</h2>`;
  const problem = status?.lastError ? html`<p class="notice error" role="alert" id="cdn-error">${status.lastError}</p>` : '';
  const state =
    status === undefined || !status.connected
      ? html`<p>Not connected. Connecting reads which AI crawlers request which pages, per hour, from the zone's analytics (read-only; nothing is installed on the site).</p>`
      : html`<table>
  <tr><th>Connected</th><td>${status.via === 'oauth' ? 'with Cloudflare sign-in' : 'with an API token'}</td></tr>
  <tr><th>Zone</th><td id="cdn-zone">${status.zone === null ? 'none selected yet: select one with select_cdn_zone' : status.zone.name}</td></tr>
  <tr><th>Backfill</th><td>${status.backfill === null ? '—' : `${status.backfill.windowsDone} of ${status.backfill.windowsTotal} windows`}</td></tr>
  <tr><th>Last sync</th><td>${formatTime(status.lastSyncAt, current.timeZone)}</td></tr>
</table>`;
  if (!owner) return html`${heading}<div id="cdn">${state}${problem}<p class="muted">An owner of this workspace can connect it.</p></div>`;
  const oauth = deps.config.cdn.oauth;
  if (oauth !== undefined) allowFormRedirect(res, new URL(deps.config.cdn.endpoints.authUrl).origin);
  const connect =
    oauth === undefined
      ? html`<p class="muted">Signing in with Cloudflare is not available on this server (the operator sets <code>${CLOUDFLARE.turnedOnBy[0]}</code> and <code>${CLOUDFLARE.turnedOnBy[1]}</code>, a Cloudflare OAuth client whose redirect URL is <code>${cdnCallbackUrl(deps.config.publicUrl)}</code>).</p>`
      : html`<form method="post" action="/w/${current.workspaceId}/cdn/connect">${csrfField(csrf)}<button type="submit">Connect Cloudflare</button></form>`;
  return html`${heading}<div id="cdn">${state}${problem}${connect}
<form method="post" action="/w/${current.workspaceId}/cdn/token">
  ${csrfField(csrf)}
  <label>Or paste a Cloudflare API token with ${TOKEN_PERMISSIONS} for the site's zone
    <input type="password" name="apiToken" autocomplete="off" required></label>
  <button type="submit">Save token</button>
</form></div>`;
}

function connectedPage(connection: CdnConnection, workspace: { name: string; websiteUrl: string }): SafeHtml {
  const zones = connection.zones.map((zone) => html`<li>${zone.name} <span class="muted">${zone.status}${zone.plan === null ? '' : ` · ${zone.plan}`}</span></li>`);
  const next =
    connection.keptZoneId !== null
      ? html`<p>The zone selected before is still readable: its sync goes on.</p>`
      : connection.zones.length === 0
        ? html`<p class="notice error" role="alert">The grant cannot read any zone: connect again and allow access to the site's zone.</p>`
        : html`<p>Select the site's zone with <code>select_cdn_zone</code> (your agent can call <code>list_cdn_zones</code> first).</p>`;
  return html`<p class="notice" role="status">Cloudflare is connected to the workspace <strong>${workspace.name}</strong> (${workspace.websiteUrl}).</p>
<h2>Zones it can read</h2><ul id="cdn-zones">${zones}</ul>${next}`;
}

/**
 * `pageStack` serves the OAuth callback, which needs no session: the one-time state names the workspace, and the
 * owner may finish the consent in a browser not signed in here. The owner-only forms use `signedIn`.
 */
export function cdnPages(deps: DashboardDeps, pageStack: RequestHandler[], signedIn: RequestHandler[]): express.Router {
  const { db, clock, config, credentials } = deps;
  const cdn = cdnService(config.cdn, clock);
  const router = express.Router();

  const message = (res: Response, status: number, title: string, body: SafeHtml, workspaceId?: string) =>
    sendPage(
      res,
      status,
      title,
      res.locals.visit ?? { csrf: '' },
      html`${body}${workspaceId === undefined || res.locals.visit === undefined ? '' : html`<p><a href="/w/${workspaceId}/settings">Back to Settings</a></p>`}`,
    );
  const failed = (res: Response, error: CdnConnectError, workspaceId?: string) =>
    message(res, error.retryable ? 503 : 400, 'Cloudflare not connected', html`<p class="notice error" role="alert">${error.message}.</p>`, workspaceId);

  const ownedWorkspace = (req: Request, res: Response): Membership | undefined => {
    const membership = res.locals.visit!.workspaces.find((w) => w.workspaceId === req.params.ws);
    if (membership === undefined) message(res, 404, 'Not found', html`<p>There is no such workspace among yours.</p>`);
    else if (membership.role !== 'owner') message(res, 403, 'Not allowed', html`<p>Only an owner of this workspace can connect Cloudflare.</p>`, membership.workspaceId);
    else return membership;
    return undefined;
  };

  /** After a connection: the sync of a zone the new grant still reads goes on at once. */
  const connected = async (res: Response, connection: CdnConnection) => {
    if (connection.keptZoneId !== null) await queueCdnBackfill(db, clock, connection.workspaceId);
    const workspace = await db.selectFrom('workspaces').select(['name', 'website_url']).where('id', '=', connection.workspaceId).executeTakeFirstOrThrow();
    message(res, 200, 'Cloudflare connected', connectedPage(connection, { name: workspace.name, websiteUrl: workspace.website_url }), connection.workspaceId);
  };

  router.post('/w/:ws/cdn/connect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    if (cdn.oauth === undefined) {
      message(res, 404, 'Not available', html`<p class="notice error">Signing in with Cloudflare is not configured on this server: the operator must set ${CDN_OAUTH_SETTINGS}.</p>`, workspace.workspaceId);
      return;
    }
    const started = await beginCdnAuthorization(db, clock, cdn, credentials, config.publicUrl, workspace.workspaceId);
    res.redirect(303, started.url);
  });

  router.post('/w/:ws/cdn/token', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const pasted = (req.body as Record<string, unknown>).apiToken;
    try {
      await connected(res, await connectApiToken(db, clock, cdn, credentials, workspace.workspaceId, typeof pasted === 'string' ? pasted : ''));
    } catch (error) {
      if (!(error instanceof CdnConnectError)) throw error;
      failed(res, error, workspace.workspaceId);
    }
  });

  router.get(CDN_CALLBACK_PATH, ...pageStack, async (req, res) => {
    try {
      await connected(res, await completeCdnAuthorization(db, clock, cdn, credentials, config.publicUrl, new URL(req.originalUrl, config.publicUrl).searchParams));
    } catch (error) {
      if (!(error instanceof CdnConnectError)) throw error;
      failed(res, error);
    }
  });

  return router;
}
