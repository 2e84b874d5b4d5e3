import type { RequestHandler, Router } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html } from '../../html.js';
import { showPage } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { confirmPage } from './confirm.js';
import type { DashboardPage } from '../../dashboardPage.js';

interface ConnectedApps {
  apps: { grantId: string; clientName: string; userEmail: string; scopes: string[]; authorizedAt: string; lastUsedAt: string | null }[];
}

/** Connected AI apps: the OAuth grants of the workspace (all of them for owners, one's own for members), each revocable. */
function appsRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {

  router.get('/w/:ws/apps', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const { apps } = await readOperation<ConnectedApps>(deps, res, 'list_connected_apps');
    const zone = current.timeZone;
    showPage(
      deps,
      res,
      'Connected AI apps',
      html`<p>Apps such as Claude or ChatGPT connect by OAuth: a person signs in and authorizes the app for this workspace with some scopes, and the app then acts as that person. ${
        current.role === 'owner' ? 'As an owner you see every app connected to this workspace.' : 'You see the apps you connected yourself.'
      } Revoking one stops its tokens at once.</p>
${
  apps.length === 0
    ? html`<p id="no-apps">No app is connected.</p>`
    : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">App</th><th scope="col">Authorized by</th><th scope="col">Scopes</th><th scope="col">Authorized</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead><tbody>${apps.map(
        (app) => html`<tr><td>${app.clientName}</td><td>${app.userEmail}</td><td>${app.scopes.join(', ')}</td><td>${formatTime(app.authorizedAt, zone)}</td><td>${
          app.lastUsedAt === null ? 'never' : formatTime(app.lastUsedAt, zone)
        }</td><td><a href="/w/${current.workspaceId}/apps/${app.grantId}/revoke">Revoke ${app.clientName}</a></td></tr>`,
      )}</tbody></table></div>`
}`,
      { at: 'apps' },
    );
  });

  router.get('/w/:ws/apps/:grantId/revoke', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const { apps } = await readOperation<ConnectedApps>(deps, res, 'list_connected_apps');
    const app = apps.find((candidate) => candidate.grantId === req.params.grantId);
    if (app === undefined) {
      showPage(deps, res, 'Not found', html`<p>There is no such connected app among those you can see.</p>`, { at: 'apps', status: 404 });
      return;
    }
    confirmPage(deps, res, {
      at: 'apps',
      title: 'Revoke connected app',
      question: `Revoke ${app.clientName}'s access to ${current.name} for ${app.userEmail} (${app.scopes.join(', ')})? Its tokens stop working at once; the app must be authorized again to reconnect.`,
      operationId: 'revoke_connected_app',
      hidden: { grantId: app.grantId },
      button: `Revoke ${app.clientName}`,
      back: `/w/${current.workspaceId}/apps`,
    });
  });
}

export const WORKSPACE_APPS: DashboardPage = {
  area: 'workspace',
  path: 'apps',
  title: 'Connected AI apps',
  routes: (router, deps, { inWorkspace }) => appsRoutes(router, deps, inWorkspace),
};
