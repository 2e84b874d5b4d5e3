import express, { type Request, type RequestHandler, type Response } from 'express';
import type { SiteAnalyticsConnection } from '../../analytics/providers/connection.js';
import { connectSiteAnalytics, disconnectSiteAnalytics, readSiteAnalyticsConnection } from '../../analytics/providers/connections.js';
import { PROVIDER_LABELS, WebAnalyticsError } from '../../analytics/providers/provider.js';
import type { Membership } from '../../accounts/sessions.js';
import { type DashboardDeps, sendPage } from '../pageContext.js';
import { ga4ConnectForm } from './google/analytics.js';
import { failureStatus, field, problemNotice, siteAnalyticsOwnerPages, siteAnalyticsServices } from './siteAnalyticsPageParts.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';

const PLAUSIBLE_SERVER = 'https://plausible.io';
const UMAMI_CLOUD_API = 'https://api.umami.is/v1';

/** The forms a workspace connects a provider with (Google Analytics goes through Google's consent screen instead: google/analytics.ts). */
const FORMS = ['plausible', 'umami-self-hosted', 'umami-cloud'] as const;
type FormName = (typeof FORMS)[number];

/** A form sent back with its problem: the fields are shown again as they were typed, secrets excepted. */
interface FormAnswer {
  form: FormName;
  values: Record<string, string>;
  problem: string;
}

type Parsed = { connection: SiteAnalyticsConnection } | { problem: string };

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

function connectForms(deps: DashboardDeps, res: Response, workspaceId: string, csrf: string, answer?: FormAnswer): SafeHtml {
  const values = (form: FormName) => (answer?.form === form ? answer.values : {});
  const problem = (form: FormName) => (answer?.form === form ? problemNotice(answer.problem) : '');
  const plausible = values('plausible');
  const selfHosted = values('umami-self-hosted');
  const cloud = values('umami-cloud');
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
${ga4ConnectForm(deps, res, workspaceId, csrf)}`;
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

export function siteAnalyticsPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock } = deps;
  const services = siteAnalyticsServices(deps);
  const router = express.Router();

  const { fail, ownedWorkspace } = siteAnalyticsOwnerPages();

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

  return router;
}
