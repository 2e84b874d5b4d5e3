import express, { type RequestHandler, type Response } from 'express';
import {
  beginWebflowConnection,
  disconnectWebflow,
  saveWebflowConnection,
  takeWebflowState,
  webflowCallbackUrl,
  webflowConnectedAt,
  WEBFLOW_CALLBACK_PATH,
} from '../../analytics/builders/connection.js';
import { BuilderApiError } from '../../analytics/builders/http.js';
import { exchangeWebflowCode, webflowAuthorizationUrl } from '../../integrations/webflow/siteBuilder.js';
import type { Membership } from '../../accounts/sessions.js';
import type { DashboardDeps } from '../pageContext.js';
import { ownerConnectionPages } from './ownerOnly.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';
import { allowFormRedirect } from '../security.js';
import { notConfigured } from '../../integrations/kit/declaration.js';
import { WEBFLOW } from '../../integrations/webflow/provider.js';

/**
 * The Webflow part of the Settings page: the operator's missing settings, or the connection with Connect and
 * Disconnect buttons for owners. Connecting authorizes the operator's Webflow app for the sites the owner picks on
 * Webflow's consent screen; install_sitebuilder_embed then installs the tracking loader there.
 */
export async function webflowSection(deps: DashboardDeps, res: Response, current: Membership): Promise<SafeHtml> {
  const settings = deps.config.siteBuilders.webflow;
  const heading = html`<h2>Webflow</h2>`;
  if (settings === undefined) {
    const [clientId, clientSecret] = WEBFLOW.turnedOnBy;
    return html`${heading}<p class="muted" id="webflow">Not available on this server: the operator must set <code>${clientId}</code> and <code>${clientSecret}</code>
(a Webflow Data Client app whose redirect URI is <code>${webflowCallbackUrl(deps.config.publicUrl)}</code>).</p>`;
  }
  const owner = current.role === 'owner';
  const connectedAt = await webflowConnectedAt(deps.db, current.workspaceId);
  const csrf = res.locals.visit!.csrf;
  if (connectedAt === undefined) {
    if (!owner) return html`${heading}<p id="webflow">Not connected. An owner of this workspace can connect it.</p>`;
    allowFormRedirect(res, new URL(settings.authUrl).origin);
    return html`${heading}<div id="webflow"><p>Not connected. Connecting lets install_sitebuilder_embed add the tracking loader to the Webflow sites you pick, and publish them when you confirm.</p>
<form method="post" action="/w/${current.workspaceId}/webflow/connect">${csrfField(csrf)}<button type="submit">Connect Webflow</button></form></div>`;
  }
  return html`${heading}<div id="webflow"><p>Connected ${formatTime(connectedAt, current.timeZone)}.</p>
${owner ? html`<form method="post" action="/w/${current.workspaceId}/webflow/disconnect">${csrfField(csrf)}<button class="secondary" type="submit">Disconnect</button></form>` : ''}</div>`;
}

export function siteBuilderPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config } = deps;
  const router = express.Router();

  const { fail, ownedWorkspace } = ownerConnectionPages({ title: 'Webflow not connected', service: 'Webflow' });

  router.post('/w/:ws/webflow/connect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const settings = config.siteBuilders.webflow;
    if (settings === undefined) {
      fail(res, 404, `${notConfigured(WEBFLOW, ' on this server')}.`, workspace.workspaceId);
      return;
    }
    const state = await beginWebflowConnection(db, clock, workspace.workspaceId, res.locals.visit!.user.userId);
    res.redirect(303, webflowAuthorizationUrl(settings, webflowCallbackUrl(config.publicUrl), state));
  });

  router.post('/w/:ws/webflow/disconnect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    await disconnectWebflow(db, workspace.workspaceId);
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  // Webflow sends the owner back here with a code (or an error) and the state; the session must be the one that started.
  router.get(WEBFLOW_CALLBACK_PATH, ...signedIn, async (req, res) => {
    const settings = config.siteBuilders.webflow;
    if (settings === undefined) {
      fail(res, 404, 'Webflow is not configured on this server.');
      return;
    }
    const visit = res.locals.visit!;
    const callback = new URL(req.originalUrl, config.publicUrl).searchParams;
    const state = callback.get('state');
    const workspaceId = state === null ? undefined : await takeWebflowState(db, clock, visit.user.userId, state);
    const workspace = visit.workspaces.find((w) => w.workspaceId === workspaceId && w.role === 'owner');
    if (workspace === undefined) {
      fail(res, 400, 'This Webflow link is not valid: it expired (it lasts 10 minutes), was already used, or was started in another session. Start again from the Settings page.');
      return;
    }
    const code = callback.get('code');
    if (code === null) {
      fail(res, 400, `Webflow was not connected: ${callback.get('error_description') ?? callback.get('error') ?? 'Webflow sent no authorization code'}.`, workspace.workspaceId);
      return;
    }
    try {
      const accessToken = await exchangeWebflowCode(settings, clock, code, webflowCallbackUrl(config.publicUrl));
      await saveWebflowConnection(db, clock, deps.credentials, { workspaceId: workspace.workspaceId, userId: visit.user.userId, accessToken });
    } catch (error) {
      if (!(error instanceof BuilderApiError)) throw error;
      fail(res, error.failure === 'unavailable' ? 502 : 400, `Webflow was not connected: ${error.message}`, workspace.workspaceId);
      return;
    }
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  return router;
}
