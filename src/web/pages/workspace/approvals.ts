import type { Request, RequestHandler, Response, Router } from 'express';
import { approvalWorkspaceFor } from '../../../approvals/approvals.js';
import { ServiceError } from '../../../errors.js';
import { type DashboardDeps, sendPage } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html } from '../../html.js';
import { dataView, showPage } from '../../kit.js';
import { csrfField } from '../../layout.js';
import { readOperation } from '../../operations.js';
import type { DashboardPage } from '../../dashboardPage.js';

interface Approval {
  approvalId: string;
  operationId: string;
  state: string;
  summary: string;
  requestedAt: string;
  expiresAt: string;
  decidedAt: string | null;
  finishedAt: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  input: Record<string, unknown>;
}

interface ApprovalList {
  page: number;
  nextPage: number | null;
  approvals: Array<Pick<Approval, 'approvalId' | 'operationId' | 'summary' | 'state' | 'requestedAt'>>;
}

/**
 * Approvals: changes agents asked for that wait for an owner. Each reads as the question its operation's dry-run note
 * asks ("Remove competitor Acme from tracking?"), with what it would be called with as labelled fields.
 */
function approvalsRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[], signedIn: RequestHandler[]): void {
  const { db, pipeline } = deps;

  router.get('/w/:ws/approvals', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const page = typeof req.query.page === 'string' ? Number(req.query.page) : 1;
    const { approvals, nextPage } = await readOperation<ApprovalList>(deps, res, 'list_approvals', { page });
    showPage(
      deps,
      res,
      'Approvals',
      approvals.length === 0
        ? html`<p>No change has asked for approval yet.</p>`
        : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Change</th><th scope="col">Requested</th><th scope="col">State</th></tr></thead><tbody>${approvals.map(
            (a) => html`<tr><td><a href="/w/${current.workspaceId}/approvals/${a.approvalId}">${a.summary}</a></td><td>${formatTime(a.requestedAt, current.timeZone)}</td><td>${a.state}</td></tr>`,
          )}</tbody></table></div>${nextPage === null ? '' : html`<p><a href="/w/${current.workspaceId}/approvals?page=${nextPage}">Older approvals</a></p>`}`,
      { at: 'approvals' },
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
    const approval = await readOperation<Approval>(deps, res, 'get_approval', { approvalId: String(req.params.id) });
    const zone = current.timeZone;
    const decide =
      approval.state !== 'pending'
        ? ''
        : current.role === 'owner'
          ? html`<form class="inline" method="post" action="/w/${current.workspaceId}/approvals/${approval.approvalId}/decide">${csrfField(visit.csrf)}<button name="decision" value="approve" type="submit">Approve</button> <button class="secondary" name="decision" value="decline" type="submit">Decline</button></form>`
          : html`<p class="muted">Waiting for an owner of this workspace to decide.</p>`;
    showPage(
      deps,
      res,
      'Approval',
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<p id="approval-summary"><strong>${approval.summary}</strong></p>
<dl class="data">
  <dt>State</dt><dd id="approval-state">${approval.state}</dd>
  <dt>Operation</dt><dd><code>${approval.operationId}</code></dd>
  <dt>Requested</dt><dd>${formatTime(approval.requestedAt, zone)}</dd>
  ${approval.state === 'pending' ? html`<dt>Expires</dt><dd>${formatTime(approval.expiresAt, zone)}</dd>` : ''}
  ${approval.decidedAt === null ? '' : html`<dt>Decided</dt><dd>${formatTime(approval.decidedAt, zone)}</dd>`}
  ${approval.finishedAt === null ? '' : html`<dt>Finished</dt><dd>${formatTime(approval.finishedAt, zone)}</dd>`}
  ${approval.error === null ? '' : html`<dt>Why it failed</dt><dd>${approval.error}</dd>`}
</dl>
<h2>What it asks for</h2>
<div id="approval-input">${dataView(approval.input)}</div>
${approval.result === null ? '' : html`<h2>Result</h2><div id="approval-result">${dataView(approval.result)}</div>`}
${decide}`,
      { at: 'approvals', status: problem === undefined ? 200 : 400 },
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
}

export const WORKSPACE_APPROVALS: DashboardPage = {
  area: 'workspace',
  path: 'approvals',
  title: 'Approvals',
  routes: (router, deps, { inWorkspace, signedIn }) => approvalsRoutes(router, deps, inWorkspace, signedIn),
};
