import express, { type RequestHandler, type Response } from 'express';
import type { Membership } from '../../../accounts/sessions.js';
import { beginGa4Authorization, completeGa4Authorization, connectGa4Property, readGa4Grant, takeGa4State, type Ga4Grant } from '../../../analytics/providers/ga4Authorization.js';
import { GA4_CALLBACK_PATH, ga4AuthorizationUrl, ga4CallbackUrl } from '../../../analytics/providers/ga4Grant.js';
import { WebAnalyticsError } from '../../../analytics/providers/provider.js';
import { type DashboardDeps, sendPage } from '../../pageContext.js';
import { failureStatus, field, problemNotice, siteAnalyticsOwnerPages, siteAnalyticsServices } from '../siteAnalyticsPageParts.js';
import { html, type SafeHtml } from '../../html.js';
import { csrfField } from '../../layout.js';
import { allowFormRedirect } from '../../security.js';
import { GOOGLE_ANALYTICS, SEARCH_CONSOLE } from '../../../integrations/google/provider.js';
import { nameList, notConfigured } from '../../../integrations/kit/declaration.js';

/**
 * Google Analytics 4 on the Settings page's web-analytics forms: the operator's missing settings, or the button that
 * sends an owner to Google's consent screen (the page may then redirect there).
 */
export function ga4ConnectForm(deps: DashboardDeps, res: Response, workspaceId: string, csrf: string): SafeHtml {
  const google = deps.config.googleAnalytics;
  if (google === undefined) {
    const [clientId, clientSecret] = GOOGLE_ANALYTICS.turnedOnBy;
    const [searchConsoleId, searchConsoleSecret] = SEARCH_CONSOLE.turnedOnBy;
    return html`<p class="muted" id="ga4-not-configured">${GOOGLE_ANALYTICS.label} is not available on this server: the operator must set <code>${clientId}</code> and <code>${clientSecret}</code>
(or <code>${searchConsoleId}</code> and <code>${searchConsoleSecret}</code>, whose client then serves both), a Google OAuth client of type "Web application" whose authorized redirect URIs include <code>${ga4CallbackUrl(deps.config.publicUrl)}</code>.</p>`;
  }
  allowFormRedirect(res, new URL(google.authUrl).origin);
  return html`<form method="post" action="/w/${workspaceId}/site-analytics/ga4/connect">${csrfField(csrf)}<button type="submit">Connect Google Analytics</button></form>`;
}

function pickerPage(res: Response, workspace: Membership, grant: Ga4Grant, problem?: string, status = 200): void {
  const visit = res.locals.visit!;
  const choices = grant.properties ?? [];
  sendPage(
    res,
    status,
    'Pick the Google Analytics property',
    { ...visit, current: workspace },
    html`${problem === undefined ? '' : problemNotice(problem)}${grant.propertiesError === null ? '' : html`<p class="notice error" id="ga4-properties-error">The properties could not be listed: ${grant.propertiesError}. Type the property id instead.</p>`}
<form method="post" action="/w/${workspace.workspaceId}/site-analytics/ga4/property">${csrfField(visit.csrf)}
${
  choices.length === 0
    ? grant.properties === null
      ? ''
      : html`<p>This Google account can read no GA4 property. Type the id of one it has access to, or connect with another account.</p>`
    : html`<fieldset><legend>Properties this Google account can read</legend>${choices.map(
        (property) =>
          html`<label><input type="radio" name="property" value="${property.propertyId}"> ${property.displayName} <span class="muted">${property.accountName} · ${property.propertyId}</span></label>`,
      )}</fieldset>`
}
  <label>Or the property id <input type="text" name="propertyId" inputmode="numeric" placeholder="318274650"></label>
  <button type="submit">Connect this property</button>
</form>
<p><a href="/w/${workspace.workspaceId}/settings">Back to Settings</a></p>`,
  );
}

/** Google's consent screen, its callback, and the property an owner picks with the grant it gave. */
export function googleAnalyticsPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config } = deps;
  const services = siteAnalyticsServices(deps);
  const router = express.Router();

  const { fail, ownedWorkspace } = siteAnalyticsOwnerPages();

  router.post('/w/:ws/site-analytics/ga4/connect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    if (config.googleAnalytics === undefined) {
      fail(res, 404, `${notConfigured(GOOGLE_ANALYTICS, ' on this server')} (or ${nameList(SEARCH_CONSOLE.turnedOnBy)}).`, workspace.workspaceId);
      return;
    }
    const state = await beginGa4Authorization(db, clock, workspace.workspaceId, res.locals.visit!.user.userId);
    res.redirect(303, ga4AuthorizationUrl(config.googleAnalytics, ga4CallbackUrl(config.publicUrl), state));
  });

  // Google sends the owner back here with a code (or an error) and the state; the session must be the one that started.
  router.get(GA4_CALLBACK_PATH, ...signedIn, async (req, res) => {
    const visit = res.locals.visit!;
    const callback = new URL(req.originalUrl, config.publicUrl).searchParams;
    const state = callback.get('state');
    const workspaceId = state === null ? undefined : await takeGa4State(db, clock, visit.user.userId, state);
    const workspace = visit.workspaces.find((w) => w.workspaceId === workspaceId && w.role === 'owner');
    if (workspace === undefined) {
      fail(res, 400, 'This Google Analytics link is not valid: it expired (it lasts 10 minutes), was already used, or was started in another session. Start again from the Settings page.');
      return;
    }
    try {
      await completeGa4Authorization(db, clock, services, config.publicUrl, workspace.workspaceId, callback);
    } catch (error) {
      if (!(error instanceof WebAnalyticsError)) throw error;
      fail(res, failureStatus(error), `Google Analytics was not connected: ${error.message}`, workspace.workspaceId);
      return;
    }
    res.redirect(303, `/w/${workspace.workspaceId}/site-analytics/ga4/property`);
  });

  /** The grant this owner obtained and has not used, or a page saying to start again. */
  const waitingGrant = async (res: Response, workspace: Membership): Promise<Ga4Grant | undefined> => {
    const grant = await readGa4Grant(db, clock, services, workspace.workspaceId, res.locals.visit!.user.userId);
    if (grant === undefined) {
      fail(res, 404, 'No Google Analytics authorization of yours is waiting for a property (it lasts an hour): connect Google Analytics again from the Settings page.', workspace.workspaceId);
    }
    return grant;
  };

  router.get('/w/:ws/site-analytics/ga4/property', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const grant = await waitingGrant(res, workspace);
    if (grant !== undefined) pickerPage(res, workspace, grant);
  });

  router.post('/w/:ws/site-analytics/ga4/property', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const grant = await waitingGrant(res, workspace);
    if (grant === undefined) return;
    const body = req.body as Record<string, unknown>;
    const chosen = (field(body, 'propertyId') || field(body, 'property')).replace(/^properties\//, '');
    if (!/^\d+$/.test(chosen)) {
      const problem =
        chosen === ''
          ? 'Property: pick one of the list or type its id.'
          : 'Property: a GA4 property id is a number such as 318274650 (Admin → Property details), not a G-… measurement id.';
      pickerPage(res, workspace, grant, problem, 400);
      return;
    }
    try {
      await connectGa4Property(db, clock, services, workspace.workspaceId, grant, chosen);
    } catch (error) {
      if (!(error instanceof WebAnalyticsError)) throw error;
      pickerPage(res, workspace, grant, `Property ${chosen} was not connected: ${error.message}`, failureStatus(error));
      return;
    }
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  return router;
}
