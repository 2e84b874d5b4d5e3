import express, { type Request, type RequestHandler, type Response } from 'express';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/apiKeys.js';
import { approvalWorkspaceFor, listApprovals, readApproval } from '../domain/approvals/approvals.js';
import type { Membership } from '../domain/accounts/sessions.js';
import { readTeam } from '../domain/team/readTeam.js';
import { ServiceError } from '../errors.js';
import { ALL_SCOPES, isScope, SCOPES, type Scope } from '../scopes.js';
import type { DashboardDeps, Visit } from './dashboard.js';
import { sendPage } from './dashboard.js';
import { html, type SafeHtml } from './html.js';
import { formValues } from './grantForm.js';
import { csrfField, when } from './layout.js';
import { cdnSection } from './cdnPages.js';
import { outreachMailboxSection } from './outreachMailboxPages.js';
import { schedulerSection } from './schedulerPages.js';
import { searchConsoleSection } from './searchConsolePages.js';
import { siteAnalyticsSection } from './siteAnalyticsPages.js';
import { webflowSection } from './siteBuilderPages.js';

declare module 'express-serve-static-core' {
  interface Locals {
    current?: Membership;
  }
}

/** Scopes a member (not an owner) may not give a key: team and policy management stays with owners. */
const OWNER_ONLY_SCOPES: readonly Scope[] = ['manage:org'];

export function workspacePages(deps: DashboardDeps, stack: RequestHandler[], signedIn: RequestHandler[]): express.Router {
  const { db, clock, pipeline } = deps;
  const router = express.Router();

  const show = (res: Response, title: string, body: SafeHtml, status = 200) => {
    const visit: Visit = res.locals.visit!;
    sendPage(res, status, title, { ...visit, current: res.locals.current! }, body);
  };

  router.get('/w/:ws/settings', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    show(
      res,
      current.name,
      html`<p>${current.websiteUrl} · you are ${current.role === 'owner' ? 'an owner' : 'a member'} of this workspace.</p>
${await searchConsoleSection(deps, res, current)}
${await siteAnalyticsSection(deps, res, current)}
${await cdnSection(deps, res, current)}
${await webflowSection(deps, res, current)}
${await outreachMailboxSection(deps, current)}
${await schedulerSection(deps, current)}`,
    );
  });

  async function keysPage(res: Response, notice?: SafeHtml, status = 200): Promise<void> {
    const current = res.locals.current!;
    const visit = res.locals.visit!;
    const keys = await listApiKeys(db, current.workspaceId);
    const grantable = current.role === 'owner' ? ALL_SCOPES : ALL_SCOPES.filter((s) => !OWNER_ONLY_SCOPES.includes(s));
    const canRevoke = (userId: string | null) => current.role === 'owner' || userId === visit.user.userId;
    show(
      res,
      'API keys',
      html`${notice ?? ''}
<table>
  <thead><tr><th>Name</th><th>Key</th><th>Scopes</th><th>Created</th><th>Last used</th><th></th></tr></thead>
  <tbody>${keys.map(
    (k) => html`<tr>
    <td>${k.name}</td><td><code>${k.displayPrefix}…</code></td><td>${k.scopes.join(', ')}</td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
    <td>${
      k.revokedAt !== null
        ? html`<span class="muted">revoked ${when(k.revokedAt)}</span>`
        : canRevoke(k.userId)
          ? html`<form class="inline" method="post" action="/w/${current.workspaceId}/keys/${k.keyId}/revoke">${csrfField(visit.csrf)}<button class="secondary" type="submit">Revoke</button></form>`
          : ''
    }</td></tr>`,
  )}</tbody>
</table>
<h2>Create a key</h2>
<form method="post" action="/w/${current.workspaceId}/keys">
  ${csrfField(visit.csrf)}
  <label>Name <input type="text" name="name" maxlength="100" required placeholder="e.g. Claude Desktop"></label>
  <fieldset><legend>Scopes</legend>${grantable.map(
    (scope) => html`<label><input type="checkbox" name="scope" value="${scope}"> <code>${scope}</code> <span class="muted">${SCOPES[scope]}</span></label>`,
  )}</fieldset>
  <button type="submit">Create key</button>
</form>`,
      status,
    );
  }

  router.get('/w/:ws/keys', ...stack, (_req, res) => keysPage(res));

  router.post('/w/:ws/keys', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const body = req.body as Record<string, unknown>;
    const requested = formValues(body, 'scope');
    const name = typeof body.name === 'string' ? body.name.trim().slice(0, 100) : '';
    const scopes = requested.filter(isScope);
    const problem =
      name === ''
        ? 'Give the key a name.'
        : scopes.length === 0 || scopes.length !== requested.length
          ? 'Choose at least one scope from the list.'
          : current.role !== 'owner' && scopes.some((s) => OWNER_ONLY_SCOPES.includes(s))
            ? 'Only an owner can create keys with manage:org.'
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

  router.get('/w/:ws/approvals', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const approvals = await listApprovals(db, clock, current.workspaceId);
    show(
      res,
      'Approvals',
      approvals.length === 0
        ? html`<p>No change has asked for approval yet.</p>`
        : html`<table><thead><tr><th>Change</th><th>Requested</th><th>State</th></tr></thead><tbody>${approvals.map(
            (a) => html`<tr><td><a href="/w/${current.workspaceId}/approvals/${a.approvalId}">${a.summary}</a></td><td>${when(a.requestedAt)}</td><td>${a.state}</td></tr>`,
          )}</tbody></table>`,
    );
  });

  // The approvalUrl handed to agents names no workspace: find it among the user's.
  router.get('/approvals/:id', ...signedIn, async (req, res) => {
    const workspaceId = await approvalWorkspaceFor(db, String(req.params.id), res.locals.visit!.user.userId);
    if (workspaceId === undefined) {
      sendPage(res, 404, 'Not found', res.locals.visit!, html`<p>There is no such approval in your workspaces.</p>`);
      return;
    }
    res.redirect(303, `/w/${workspaceId}/approvals/${String(req.params.id)}`);
  });

  async function approvalPage(req: Request, res: Response, problem?: string): Promise<void> {
    const current = res.locals.current!;
    const visit = res.locals.visit!;
    let approval;
    try {
      approval = await readApproval(db, clock, current.workspaceId, String(req.params.id));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      show(res, 'Not found', html`<p>There is no such approval in this workspace.</p>`, 404);
      return;
    }
    const decide =
      approval.state !== 'pending'
        ? ''
        : current.role === 'owner'
          ? html`<form class="inline" method="post" action="/w/${current.workspaceId}/approvals/${approval.approvalId}/decide">${csrfField(visit.csrf)}<button name="decision" value="approve" type="submit">Approve</button> <button class="secondary" name="decision" value="decline" type="submit">Decline</button></form>`
          : html`<p class="muted">Waiting for an owner of this workspace to decide.</p>`;
    show(
      res,
      'Approval',
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<p><strong>${approval.summary}</strong></p>
<table>
  <tr><th>State</th><td id="approval-state">${approval.state}</td></tr>
  <tr><th>Operation</th><td><code>${approval.operationId}</code></td></tr>
  <tr><th>Requested</th><td>${approval.requestedAt}</td></tr>
  <tr><th>Expires</th><td>${approval.expiresAt}</td></tr>
  ${approval.decidedAt === null ? '' : html`<tr><th>Decided</th><td>${approval.decidedAt}</td></tr>`}
  ${approval.error === null ? '' : html`<tr><th>Why it failed</th><td>${approval.error}</td></tr>`}
  ${approval.result === null ? '' : html`<tr><th>Result</th><td><code>${JSON.stringify(approval.result)}</code></td></tr>`}
</table>
${decide}`,
      problem === undefined ? 200 : 400,
    );
  }

  router.get('/w/:ws/approvals/:id', ...stack, (req, res) => approvalPage(req, res));

  router.post('/w/:ws/approvals/:id/decide', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const choice = (req.body as Record<string, unknown>).decision;
    if (choice !== 'approve' && choice !== 'decline') {
      await approvalPage(req, res, 'Choose approve or decline.');
      return;
    }
    try {
      await pipeline.decideApproval({ workspaceId: current.workspaceId, approvalId: String(req.params.id), userId: res.locals.visit!.user.userId, choice });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      await approvalPage(req, res, error.message);
      return;
    }
    res.redirect(303, `/w/${current.workspaceId}/approvals/${String(req.params.id)}`);
  });

  router.get('/w/:ws/team', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const team = await readTeam(db, current.workspaceId, clock.now());
    show(
      res,
      'Team',
      html`<p class="muted">Seats: ${team.seats.used} of ${team.seats.limit}. Invite people with <code>invite_team_member</code>; they accept at the link it returns.</p>
<h2>Members</h2>
<table><thead><tr><th>Email</th><th>Role</th><th>Joined</th></tr></thead><tbody>${team.members.map(
        (m) => html`<tr><td>${m.email}</td><td>${m.role}</td><td>${m.joinedAt}</td></tr>`,
      )}</tbody></table>
<h2>Pending invites</h2>
${
  team.invites.length === 0
    ? html`<p>None.</p>`
    : html`<table><thead><tr><th>Email</th><th>Role</th><th>Invited</th><th>Expires</th></tr></thead><tbody>${team.invites.map(
        (i) => html`<tr><td>${i.email}</td><td>${i.role}</td><td>${i.invitedAt}</td><td>${i.expiresAt}</td></tr>`,
      )}</tbody></table>`
}`,
    );
  });

  return router;
}
