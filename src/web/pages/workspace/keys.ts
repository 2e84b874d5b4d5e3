import type { RequestHandler, Response, Router } from 'express';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../auth/apiKeys.js';
import { refusalText, scopesOfRole, splitByRole } from '../../../auth/roles.js';
import { isScope, SCOPES } from '../../../scopes.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { formValues } from '../../grantForm.js';
import { html, type SafeHtml } from '../../html.js';
import { showPage } from '../../kit.js';
import { csrfField } from '../../layout.js';
import type { DashboardPage } from '../../dashboardPage.js';

/**
 * API keys. The one deliberate exception to "pages call operations", with the connection pages that store outside
 * secrets: a credential is minted only here, by a signed-in person, never through an operation an agent could call.
 */
function keysRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {
  const { db, clock } = deps;

  async function keysPage(res: Response, notice?: SafeHtml, status = 200): Promise<void> {
    const current = res.locals.current!;
    const visit = res.locals.visit!;
    const keys = await listApiKeys(db, current.workspaceId);
    const grantable = scopesOfRole(current.role);
    const canRevoke = (userId: string | null) => current.role === 'owner' || userId === visit.user.userId;
    const zone = current.timeZone;
    showPage(
      deps,
      res,
      'API keys',
      html`${notice ?? ''}
<div class="table-wrap" tabindex="0"><table>
  <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Actions</th></tr></thead>
  <tbody>${keys.map(
    (k) => html`<tr>
    <td>${k.name}</td><td><code>${k.displayPrefix}…</code></td><td>${k.scopes.join(', ')}</td><td>${formatTime(k.createdAt, zone)}</td><td>${formatTime(k.lastUsedAt, zone)}</td>
    <td>${
      k.revokedAt !== null
        ? html`<span class="muted">revoked ${formatTime(k.revokedAt, zone)}</span>`
        : canRevoke(k.userId)
          ? html`<form class="inline" method="post" action="/w/${current.workspaceId}/keys/${k.keyId}/revoke">${csrfField(visit.csrf)}<button class="secondary" type="submit">Revoke</button></form>`
          : ''
    }</td></tr>`,
  )}</tbody>
</table></div>
<h2>Create a key</h2>
<form method="post" action="/w/${current.workspaceId}/keys">
  ${csrfField(visit.csrf)}
  <label>Name <input type="text" name="name" maxlength="100" required placeholder="e.g. Claude Desktop"></label>
  <fieldset><legend>Scopes</legend>${grantable.map(
    (scope) => html`<label><input type="checkbox" name="scope" value="${scope}"> <code>${scope}</code> <span class="muted">${SCOPES[scope]}</span></label>`,
  )}</fieldset>
  <button type="submit">Create key</button>
</form>`,
      { at: 'keys', status },
    );
  }

  router.get('/w/:ws/keys', ...stack, (_req, res) => keysPage(res));

  router.post('/w/:ws/keys', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const body = req.body as Record<string, unknown>;
    const requested = formValues(body, 'scope');
    const name = typeof body.name === 'string' ? body.name.trim().slice(0, 100) : '';
    const scopes = requested.filter(isScope);
    const { refused } = splitByRole(current.role, scopes);
    const problem =
      name === ''
        ? 'Give the key a name.'
        : scopes.length === 0 || scopes.length !== requested.length
          ? 'Choose at least one scope from the list.'
          : refused.length > 0
            ? `You cannot create this key: ${refusalText(current.role, refused)}.`
            : undefined;
    if (problem !== undefined) {
      await keysPage(res, html`<p class="notice error" role="alert">${problem}</p>`, 400);
      return;
    }
    const created = await createApiKey(db, clock, { workspaceId: current.workspaceId, scopes, name, userId: res.locals.visit!.user.userId });
    await keysPage(
      res,
      html`<div class="notice" role="status"><p>Your new key <strong>${name}</strong>. Copy it now: it is shown only this once.</p><code class="key" id="new-key">${created.key}</code></div>`,
    );
  });

  router.post('/w/:ws/keys/:keyId/revoke', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const key = (await listApiKeys(db, current.workspaceId)).find((k) => k.keyId === req.params.keyId);
    if (key === undefined || (current.role !== 'owner' && key.userId !== res.locals.visit!.user.userId)) {
      await keysPage(res, html`<p class="notice error" role="alert">You cannot revoke that key.</p>`, 404);
      return;
    }
    await revokeApiKey(db, clock, key.keyId, current.workspaceId);
    res.redirect(303, `/w/${current.workspaceId}/keys`);
  });
}

export const WORKSPACE_KEYS: DashboardPage = {
  area: 'workspace',
  path: 'keys',
  title: 'API keys',
  routes: (router, deps, { inWorkspace }) => keysRoutes(router, deps, inWorkspace),
};
