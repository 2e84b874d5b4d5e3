import express, { type RequestHandler, type Response } from 'express';
import type { Membership } from '../../../accounts/sessions.js';
import { callbackUrl, CALLBACK_PATH, completeConnection } from '../../../visibility/searchConsole/connect.js';
import { beginConnection, disconnectSearchConsole, readConnection, saveConnection, takeState } from '../../../visibility/searchConsole/connection.js';
import { authorizationUrl, SearchConsoleError } from '../../../integrations/google/searchConsole.js';
import type { DashboardDeps } from '../../pageContext.js';
import { ownerConnectionPages } from '../ownerOnly.js';
import { html, type SafeHtml } from '../../html.js';
import { formatTime } from '../../format.js';
import { csrfField } from '../../layout.js';
import { allowFormRedirect } from '../../security.js';
import { SEARCH_CONSOLE } from '../../../integrations/google/provider.js';
import { notConfigured } from '../../../integrations/kit/declaration.js';

/**
 * The Search Console part of the Settings page: the operator's missing settings, or the connection's state with
 * Connect and Disconnect buttons for owners. A page with the Connect form lets it redirect to Google's consent screen.
 */
export async function searchConsoleSection(deps: DashboardDeps, res: Response, current: Membership): Promise<SafeHtml> {
  const settings = deps.config.searchConsole;
  const heading = html`<h2>Google Search Console</h2>`;
  if (settings === undefined) {
    const [clientId, clientSecret] = SEARCH_CONSOLE.turnedOnBy;
    return html`${heading}<p class="muted" id="search-console">Not available on this server: the operator must set <code>${clientId}</code> and <code>${clientSecret}</code>
(a Google OAuth client of type "Web application" whose authorized redirect URI is <code>${callbackUrl(deps.config.publicUrl)}</code>).</p>`;
  }
  const csrf = res.locals.visit!.csrf;
  const owner = current.role === 'owner';
  const status = await readConnection(deps.db, current.workspaceId);
  const connect = () => {
    if (!owner) return html`<p class="muted">An owner of this workspace can connect it.</p>`;
    allowFormRedirect(res, new URL(settings.authUrl).origin);
    return html`<form method="post" action="/w/${current.workspaceId}/search-console/connect">${csrfField(csrf)}<button type="submit">Connect Search Console</button></form>`;
  };
  const problem = status === undefined || status.lastError === null ? '' : html`<p class="notice error" role="alert" id="search-console-error">${status.lastError}</p>`;
  if (status === undefined || !status.connected) {
    return html`${heading}<div id="search-console"><p>Not connected. Connecting gives Google clicks, impressions and average position per query and page (read-only access), synced weekly.</p>
${problem}${connect()}</div>`;
  }
  return html`${heading}<div id="search-console">
<table>
  <tr><th>Property</th><td id="search-console-property">${status.property}</td></tr>
  <tr><th>Connected</th><td>${formatTime(status.connectedAt, current.timeZone)}</td></tr>
  <tr><th>Last sync</th><td>${status.lastSyncAt === null ? 'waiting for the first sync' : html`${formatTime(status.lastSyncAt, current.timeZone)} · ${status.rows} query and page rows`}</td></tr>
</table>
${problem}${owner ? html`<form method="post" action="/w/${current.workspaceId}/search-console/disconnect">${csrfField(csrf)}<button class="secondary" type="submit">Disconnect</button></form>` : ''}</div>`;
}

export function searchConsolePages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config } = deps;
  const router = express.Router();

  const { fail, ownedWorkspace } = ownerConnectionPages({ title: 'Search Console not connected', service: 'Search Console' });

  router.post('/w/:ws/search-console/connect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    if (config.searchConsole === undefined) {
      fail(res, 404, `${notConfigured(SEARCH_CONSOLE, ' on this server')}.`, workspace.workspaceId);
      return;
    }
    const state = await beginConnection(db, clock, workspace.workspaceId, res.locals.visit!.user.userId);
    res.redirect(303, authorizationUrl(config.searchConsole, callbackUrl(config.publicUrl), state));
  });

  router.post('/w/:ws/search-console/disconnect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    await disconnectSearchConsole(db, workspace.workspaceId);
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  // Google sends the owner back here with a code (or an error) and the state; the session must be the one that started.
  router.get(CALLBACK_PATH, ...signedIn, async (req, res) => {
    if (config.searchConsole === undefined) {
      fail(res, 404, 'Search Console is not configured on this server.');
      return;
    }
    const visit = res.locals.visit!;
    const callback = new URL(req.originalUrl, config.publicUrl).searchParams;
    const state = callback.get('state');
    const workspaceId = state === null ? undefined : await takeState(db, clock, visit.user.userId, state);
    const workspace = visit.workspaces.find((w) => w.workspaceId === workspaceId && w.role === 'owner');
    if (workspace === undefined) {
      fail(res, 400, 'This Search Console link is not valid: it expired (it lasts 10 minutes), was already used, or was started in another session. Start again from the Settings page.');
      return;
    }
    try {
      const connection = await completeConnection(config.searchConsole, config.publicUrl, callback, workspace.websiteUrl);
      await saveConnection(db, clock, deps.credentials, workspace.workspaceId, connection);
    } catch (error) {
      if (!(error instanceof SearchConsoleError)) throw error;
      fail(res, error.retryable ? 502 : 400, `Search Console was not connected: ${error.message}`, workspace.workspaceId);
      return;
    }
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  return router;
}
