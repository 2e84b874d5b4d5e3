import express, { type Request, type RequestHandler, type Response } from 'express';
import { connectSiteAnalytics, disconnectSiteAnalytics, readSiteAnalyticsConnection, type SiteAnalyticsConnection, type SiteAnalyticsServices } from '../../analytics/providers/connections.js';
import { beginGa4Authorization, completeGa4Authorization, connectGa4Property, readGa4Grant, takeGa4State, type Ga4Grant } from '../../analytics/providers/ga4Authorization.js';
import { GA4_CALLBACK_PATH, ga4AuthorizationUrl, ga4CallbackUrl } from '../../analytics/providers/ga4Grant.js';
import { AnalyticsProviderError, AnalyticsRateLimitedError, PROVIDER_LABELS, WebAnalyticsError } from '../../analytics/providers/provider.js';
import type { Membership } from '../../accounts/sessions.js';
import { type DashboardDeps, sendPage } from '../pageContext.js';
import { ownerConnectionPages } from './ownerOnly.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';
import { allowFormRedirect } from '../security.js';
import { GOOGLE_ANALYTICS, SEARCH_CONSOLE } from '../../integrations/google/provider.js';
import { nameList, notConfigured } from '../../integrations/kit/declaration.js';

const PLAUSIBLE_SERVER = 'https://plausible.io';
const UMAMI_CLOUD_API = 'https://api.umami.is/v1';

/** The forms a workspace connects a provider with (Google Analytics goes through Google's consent screen instead). */
const FORMS = ['plausible', 'umami-self-hosted', 'umami-cloud'] as const;
type FormName = (typeof FORMS)[number];

/** A form sent back with its problem: the fields are shown again as they were typed, secrets excepted. */
interface FormAnswer {
  form: FormName;
  values: Record<string, string>;
  problem: string;
}

type Parsed = { connection: SiteAnalyticsConnection } | { problem: string };

function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A server's base URL: https (requests go through the SafeFetcher, which asks https only), nothing after the path. */
function serverUrl(value: string, label: string, example: string): string | { problem: string } {
  const problem = { problem: `${label}: must be an https URL such as ${example}.` };
  if (!URL.canParse(value)) return problem;
  const url = new URL(value);
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return problem;
  return url.href.replace(/\/+$/, '');
}

function parseForm(form: FormName, body: Record<string, unknown>): Parsed {
  const missing = (label: string) => ({ problem: `${label}: required.` });
  if (form === 'plausible') {
    const siteId = field(body, 'siteId');
    const apiKey = field(body, 'apiKey');
    const baseUrl = serverUrl(field(body, 'baseUrl') || PLAUSIBLE_SERVER, 'Server', PLAUSIBLE_SERVER);
    if (siteId === '') return missing('Site id');
    if (/[/:\s]/.test(siteId)) return { problem: 'Site id: the site’s domain as Plausible lists it, such as acme.example (no https:// and no path).' };
    if (apiKey === '') return missing('Stats API key');
    if (typeof baseUrl !== 'string') return baseUrl;
    return { connection: { provider: 'plausible', baseUrl, siteId, apiKey } };
  }
  const websiteId = field(body, 'websiteId');
  const websiteIdProblem = websiteId === '' ? missing('Website id') : /[/?#\s]/.test(websiteId) ? { problem: 'Website id: the id Umami shows under the website’s settings, such as 4f7c1a52-9d1e-4c3b-8a61-2b9e07d5c1aa.' } : undefined;
  if (form === 'umami-self-hosted') {
    const typedUrl = field(body, 'baseUrl');
    const username = field(body, 'username');
    const password = typeof body.password === 'string' ? body.password : '';
    if (typedUrl === '') return missing('Server');
    const baseUrl = serverUrl(typedUrl, 'Server', 'https://umami.acme.example');
    if (typeof baseUrl !== 'string') return baseUrl;
    if (username === '') return missing('User name');
    if (password === '') return missing('Password');
    if (websiteIdProblem !== undefined) return websiteIdProblem;
    return { connection: { provider: 'umami', kind: 'self-hosted', baseUrl, username, password, websiteId } };
  }
  const apiKey = field(body, 'apiKey');
  const baseUrl = serverUrl(field(body, 'baseUrl') || UMAMI_CLOUD_API, 'API URL', UMAMI_CLOUD_API);
  if (apiKey === '') return missing('API key');
  if (typeof baseUrl !== 'string') return baseUrl;
  if (websiteIdProblem !== undefined) return websiteIdProblem;
  return { connection: { provider: 'umami', kind: 'cloud', baseUrl, apiKey, websiteId } };
}

/** A provider's failure as the page's status: its limits or its outage are a bad gateway, the rest is the owner's to fix. */
function failureStatus(error: WebAnalyticsError): number {
  return error instanceof AnalyticsRateLimitedError || (error instanceof AnalyticsProviderError && error.retryable) ? 502 : 400;
}

const problemNotice = (problem: string) => html`<p class="notice error" role="alert" id="site-analytics-error">${problem}</p>`;

function connectForms(deps: DashboardDeps, res: Response, workspaceId: string, csrf: string, answer?: FormAnswer): SafeHtml {
  const values = (form: FormName) => (answer?.form === form ? answer.values : {});
  const problem = (form: FormName) => (answer?.form === form ? problemNotice(answer.problem) : '');
  const plausible = values('plausible');
  const selfHosted = values('umami-self-hosted');
  const cloud = values('umami-cloud');
  const google = deps.config.googleAnalytics;
  let ga4: SafeHtml;
  if (google === undefined) {
    const [clientId, clientSecret] = GOOGLE_ANALYTICS.turnedOnBy;
    const [searchConsoleId, searchConsoleSecret] = SEARCH_CONSOLE.turnedOnBy;
    ga4 = html`<p class="muted" id="ga4-not-configured">${GOOGLE_ANALYTICS.label} is not available on this server: the operator must set <code>${clientId}</code> and <code>${clientSecret}</code>
(or <code>${searchConsoleId}</code> and <code>${searchConsoleSecret}</code>, whose client then serves both), a Google OAuth client of type "Web application" whose authorized redirect URIs include <code>${ga4CallbackUrl(deps.config.publicUrl)}</code>.</p>`;
  } else {
    allowFormRedirect(res, new URL(google.authUrl).origin);
    ga4 = html`<form method="post" action="/w/${workspaceId}/site-analytics/ga4/connect">${csrfField(csrf)}<button type="submit">Connect Google Analytics</button></form>`;
  }
  return html`<h3>Plausible</h3>
${problem('plausible')}<form method="post" action="/w/${workspaceId}/site-analytics/plausible">${csrfField(csrf)}
  <label>Site id <input type="text" name="siteId" required placeholder="acme.example" value="${plausible.siteId ?? ''}"></label>
  <label>Stats API key <input type="password" name="apiKey" required autocomplete="off"></label>
  <label>Server <input type="text" name="baseUrl" value="${plausible.baseUrl ?? PLAUSIBLE_SERVER}"></label>
  <button type="submit">Connect Plausible</button>
</form>
<h3>Umami (self-hosted)</h3>
${problem('umami-self-hosted')}<form method="post" action="/w/${workspaceId}/site-analytics/umami-self-hosted">${csrfField(csrf)}
  <label>Server <input type="text" name="baseUrl" required placeholder="https://umami.acme.example" value="${selfHosted.baseUrl ?? ''}"></label>
  <label>User name <input type="text" name="username" required autocomplete="off" value="${selfHosted.username ?? ''}"></label>
  <label>Password <input type="password" name="password" required autocomplete="off"></label>
  <label>Website id <input type="text" name="websiteId" required value="${selfHosted.websiteId ?? ''}"></label>
  <button type="submit">Connect Umami</button>
</form>
<h3>Umami Cloud</h3>
${problem('umami-cloud')}<form method="post" action="/w/${workspaceId}/site-analytics/umami-cloud">${csrfField(csrf)}
  <label>API key <input type="password" name="apiKey" required autocomplete="off"></label>
  <label>Website id <input type="text" name="websiteId" required value="${cloud.websiteId ?? ''}"></label>
  <label>API URL <input type="text" name="baseUrl" value="${cloud.baseUrl ?? UMAMI_CLOUD_API}"></label>
  <button type="submit">Connect Umami Cloud</button>
</form>
<h3>Google Analytics 4</h3>
${ga4}`;
}

/**
 * The web-analytics part of the Settings page: the connected provider with what it reads and its last error, and
 * Disconnect for owners; or, when none is connected, the forms that connect one (owners only).
 */
export async function siteAnalyticsSection(deps: DashboardDeps, res: Response, current: Membership, answer?: FormAnswer): Promise<SafeHtml> {
  const heading = html`<h2>Web analytics</h2>`;
  const csrf = res.locals.visit!.csrf;
  const owner = current.role === 'owner';
  const status = await readSiteAnalyticsConnection(deps.db, current.workspaceId);
  if (status === undefined) {
    return html`${heading}<div id="site-analytics"><p>Not connected. Connecting Plausible, Umami or Google Analytics gives the traffic overview the site’s visits, sources (AI answer engines among them) and top pages, read from the provider with read-only access.</p>
${owner ? connectForms(deps, res, current.workspaceId, csrf, answer) : html`<p class="muted">An owner of this workspace can connect it.</p>`}</div>`;
  }
  const reads =
    status.provider === 'ga4'
      ? html`property <code>${status.site}</code>${status.siteName === null ? '' : html` (${status.siteName})`}`
      : html`${status.provider === 'plausible' ? 'site' : 'website'} <code>${status.site}</code> at ${status.baseUrl}`;
  return html`${heading}<div id="site-analytics">
<table>
  <tr><th>Provider</th><td id="site-analytics-provider">${PROVIDER_LABELS[status.provider]}</td></tr>
  <tr><th>Reads</th><td id="site-analytics-reads">${reads}</td></tr>
  <tr><th>Connected</th><td>${formatTime(status.connectedAt, current.timeZone)}</td></tr>
</table>
${status.lastError === null ? '' : problemNotice(`The last read failed: ${status.lastError}`)}${
    owner
      ? html`<form method="post" action="/w/${current.workspaceId}/site-analytics/disconnect">${csrfField(csrf)}<button class="secondary" type="submit">Disconnect</button></form>
<p class="muted">To connect another provider, disconnect this one first.</p>`
      : ''
  }</div>`;
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

export function siteAnalyticsPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config } = deps;
  const services: SiteAnalyticsServices = { outbound: deps.outbound, googleAnalytics: config.googleAnalytics, credentials: deps.credentials };
  const router = express.Router();

  const { fail, ownedWorkspace } = ownerConnectionPages({ title: 'Web analytics not connected', service: 'web analytics', errorId: 'site-analytics-error' });

  const connectWithForm = async (form: FormName, req: Request, res: Response) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const body = req.body as Record<string, unknown>;
    const values = Object.fromEntries(['siteId', 'baseUrl', 'username', 'websiteId'].map((name) => [name, field(body, name)]));
    const again = async (status: number, problem: string) =>
      sendPage(res, status, 'Web analytics', { ...res.locals.visit!, current: workspace }, await siteAnalyticsSection(deps, res, workspace, { form, values, problem }));
    if ((await readSiteAnalyticsConnection(db, workspace.workspaceId)) !== undefined) {
      fail(res, 409, 'A web-analytics provider is already connected: disconnect it first.', workspace.workspaceId);
      return;
    }
    const parsed = parseForm(form, body);
    if ('problem' in parsed) {
      await again(400, parsed.problem);
      return;
    }
    try {
      await connectSiteAnalytics(db, clock, services, workspace.workspaceId, parsed.connection);
    } catch (error) {
      if (!(error instanceof WebAnalyticsError)) throw error;
      await again(failureStatus(error), `${PROVIDER_LABELS[parsed.connection.provider]} was not connected: ${error.message}`);
      return;
    }
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  };
  for (const form of FORMS) router.post(`/w/:ws/site-analytics/${form}`, ...signedIn, (req, res) => connectWithForm(form, req, res));

  router.post('/w/:ws/site-analytics/disconnect', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    await disconnectSiteAnalytics(db, workspace.workspaceId);
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

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
