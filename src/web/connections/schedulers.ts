import express, { type RequestHandler, type Response } from 'express';
import type { Membership } from '../../accounts/sessions.js';
import { BadInputError } from '../../errors.js';
import { formProblem } from '../../outreach/mailbox.js';
import {
  connectionForm,
  readConnectionView,
  recordCheck,
  removeConnection,
  saveConnection,
  schedulerAccount,
  schedulerPagePath,
  type ConnectionView,
  type SchedulerServices,
} from '../../repurpose/connection.js';
import { BufferScheduler } from '../../integrations/buffer/scheduler.js';
import { openScheduler, SCHEDULER_NAMES } from '../../repurpose/schedulers/index.js';
import { SchedulerAuthError, SchedulerError, SchedulerRateLimitedError, SCHEDULER_TOOLS, type SchedulerAccount } from '../../repurpose/schedulers/scheduler.js';
import { TypefullyScheduler } from '../../integrations/typefully/scheduler.js';
import { type DashboardDeps, sendPage } from '../pageContext.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';
import { ownerConnectionPages } from './ownerOnly.js';

/** The repurposing part of the Settings page: which scheduling tool is connected, and for owners the link to connect one. */
export async function schedulerSection(deps: DashboardDeps, current: Membership): Promise<SafeHtml> {
  const view = await readConnectionView(deps.db, current.workspaceId);
  const state =
    view === undefined
      ? html`<p>No scheduling tool yet: repurposed posts cannot be pushed until one is connected.</p>`
      : html`<p>Posts are pushed to <strong>${SCHEDULER_NAMES[view.tool]}</strong>${view.checkedAt === null ? '' : html` (last reached ${formatTime(view.checkedAt, current.timeZone)})`}.</p>${view.lastError === null ? '' : html`<p class="notice error" role="alert">${view.lastError}</p>`}`;
  const link = current.role === 'owner' ? html`<p><a href="${schedulerPagePath(current.workspaceId)}">Scheduling tool settings</a></p>` : html`<p class="muted">An owner of this workspace connects the scheduling tool.</p>`;
  return html`<h2>Scheduling tool</h2><div id="scheduler">${state}${link}</div>`;
}

/** The message of a scheduler's refusal, or undefined for anything else (which is the page's own failure). */
function refusal(error: unknown): string | undefined {
  if (error instanceof SchedulerAuthError || error instanceof SchedulerError || error instanceof SchedulerRateLimitedError) return error.message;
  return undefined;
}

/** The accounts inside the tool the key can reach (Buffer's organizations, Typefully's social sets), for the choice of one. */
async function accountChoices(account: SchedulerAccount, services: SchedulerServices, deps: DashboardDeps): Promise<Array<{ id: string; name: string }> | string> {
  try {
    if (account.tool === 'buffer') return await new BufferScheduler(account, services.outbound, deps.clock).organizations();
    if (account.tool === 'typefully') return await new TypefullyScheduler(account, services.outbound, deps.clock).socialSets();
    return [];
  } catch (error) {
    const message = refusal(error);
    if (message === undefined) throw error;
    return message;
  }
}

function settingsForm(workspaceId: string, csrf: string, view: ConnectionView | undefined, values: Record<string, string>): SafeHtml {
  const tool = values.tool ?? view?.tool ?? 'postiz';
  const options = SCHEDULER_TOOLS.map((name) => html`<option value="${name}"${name === tool ? html` selected` : ''}>${SCHEDULER_NAMES[name]}</option>`);
  const baseUrl = values.baseUrl ?? (view?.tool === 'postiz' ? view.baseUrl : '');
  const accountId = values.accountId ?? view?.accountId ?? '';
  return html`<form method="post" action="${schedulerPagePath(workspaceId)}" id="scheduler-form">${csrfField(csrf)}
<label>Tool <select name="tool">${options}</select></label>
<label>API key <input type="password" name="apiKey" autocomplete="new-password" ${view === undefined ? html`required` : html`placeholder="stored: leave blank to keep"`}></label>
<label>Postiz API address (self-hosted Postiz only; blank: the hosted API) <input name="baseUrl" value="${baseUrl}" placeholder="https://postiz.example.com/api/public/v1"></label>
<label>Buffer organization id or Typefully social set id (blank: the only one, or all of them) <input name="accountId" value="${accountId}" autocomplete="off"></label>
<button type="submit">Save the connection</button></form>`;
}

const FORM_FIELDS = ['tool', 'baseUrl', 'accountId'];

/** An owner's page for the workspace's scheduling tool: the key (never shown back), the account in it, a check, removal. */
export function schedulerPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config, credentials } = deps;
  const services: SchedulerServices = { outbound: deps.outbound, credentials, schedulers: { urls: config.schedulerUrls, limits: deps.limiterStore } };
  const router = express.Router();
  const { ownedWorkspace } = ownerConnectionPages({ title: 'Scheduling tool', service: 'the scheduling tool', errorId: 'scheduler-error' });

  const showPage = async (res: Response, workspace: Membership, status: number, notice?: SafeHtml, values: Record<string, string> = {}) => {
    const view = await readConnectionView(db, workspace.workspaceId);
    const csrf = res.locals.visit!.csrf;
    const account = await schedulerAccount(db, services, workspace.workspaceId);
    let choices: SafeHtml | string = '';
    if (account !== undefined && account.tool !== 'postiz') {
      const found = await accountChoices(account, services, deps);
      const what = account.tool === 'buffer' ? 'Organizations' : 'Social sets';
      choices =
        typeof found === 'string'
          ? html`<p class="notice error">${what} could not be listed: ${found}</p>`
          : html`<h2>${what} this key reaches</h2><ul id="scheduler-accounts">${found.map((item) => html`<li><code>${item.id}</code> ${item.name}</li>`)}</ul>`;
    }
    const state =
      view === undefined
        ? html`<p>Not connected.</p>`
        : html`<p>Connected to <strong>${SCHEDULER_NAMES[view.tool]}</strong> at ${view.baseUrl}${view.accountId === null ? '' : html`, account ${view.accountId}`}; last reached ${formatTime(view.checkedAt, workspace.timeZone)}.</p>${view.lastError === null ? '' : html`<p class="notice error">${view.lastError}</p>`}`;
    const actions =
      view === undefined
        ? ''
        : html`<form method="post" action="${schedulerPagePath(workspace.workspaceId)}/check">${csrfField(csrf)}<button type="submit">Check: list the channels</button></form>
<form method="post" action="${schedulerPagePath(workspace.workspaceId)}/remove">${csrfField(csrf)}<button type="submit">Remove the connection</button></form>`;
    sendPage(
      res,
      status,
      'Scheduling tool',
      { ...res.locals.visit!, current: workspace },
      html`${notice ?? ''}<p>Repurposed posts are pushed to the workspace's own Postiz, Buffer or Typefully account with its API key. The key is stored encrypted when the server has SECRETS_KEY set, and is never shown again.</p>
${state}${settingsForm(workspace.workspaceId, csrf, view, values)}${choices}${actions}<p><a href="/w/${workspace.workspaceId}/settings">Back to Settings</a></p>`,
    );
  };

  router.get('/w/:ws/repurpose/scheduler', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace !== undefined) await showPage(res, workspace, 200);
  });

  router.post('/w/:ws/repurpose/scheduler', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const body = req.body as Record<string, unknown>;
    const values = Object.fromEntries(FORM_FIELDS.map((name) => [name, typeof body[name] === 'string' ? body[name] : '']));
    const problem = (text: string) => showPage(res, workspace, 400, html`<p class="notice error" role="alert" id="scheduler-error">${text}</p>`, values);
    const parsed = connectionForm.safeParse(body);
    if (!parsed.success) return problem(formProblem(parsed.error));
    try {
      await saveConnection(db, clock, credentials, config.schedulerUrls, workspace.workspaceId, parsed.data);
    } catch (error) {
      if (error instanceof BadInputError) return problem(error.message);
      throw error;
    }
    return showPage(res, workspace, 200, html`<p class="notice" role="status">Connection saved.</p>`);
  });

  router.post('/w/:ws/repurpose/scheduler/check', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const account = await schedulerAccount(db, services, workspace.workspaceId);
    if (account === undefined) return showPage(res, workspace, 400, html`<p class="notice error" role="alert" id="scheduler-error">Save the connection first.</p>`);
    try {
      const channels = await openScheduler(account, { outbound: services.outbound, limits: services.schedulers.limits, clock }).channels();
      await recordCheck(db, clock, workspace.workspaceId, null);
      const list = channels.map((channel) => html`<li><code>${channel.id}</code> ${channel.name} · ${channel.platform} · ${channel.format ?? 'no draft format'}${channel.active ? '' : ' · inactive'}</li>`);
      return showPage(res, workspace, 200, html`<div class="notice" role="status"><p>${SCHEDULER_NAMES[account.tool]} answered with ${channels.length} channel${channels.length === 1 ? '' : 's'}:</p><ul id="scheduler-channels">${list}</ul></div>`);
    } catch (error) {
      const message = refusal(error);
      if (message === undefined) throw error;
      await recordCheck(db, clock, workspace.workspaceId, message);
      return showPage(res, workspace, 502, html`<p class="notice error" role="alert" id="scheduler-error">The check failed: ${message}</p>`);
    }
  });

  router.post('/w/:ws/repurpose/scheduler/remove', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    await removeConnection(db, workspace.workspaceId);
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  return router;
}
