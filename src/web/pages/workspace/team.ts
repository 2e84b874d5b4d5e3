import type { RequestHandler, Router } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { callOperation, readOperation } from '../../operations.js';
import { confirmPage } from './confirm.js';
import type { DashboardPage } from '../../dashboardPage.js';

interface Team {
  members: { userId: string; email: string; role: 'owner' | 'member'; joinedAt: string }[];
  invites: { inviteId: string; email: string; role: 'owner' | 'member'; invitedAt: string; expiresAt: string }[];
  seats: { used: number; limit: number };
}

const ROLES = html`<dl class="data"><dt>Owner</dt><dd>Everything, including the team, API keys with manage:org, billing, the article policy and deciding approvals.</dd>
<dt>Member</dt><dd>Everything else: content, brand, visibility, publishing, growth and analytics.</dd></dl>`;

/** Team: members and pending invites with their roles; owners invite (dry run, then confirm), revoke invites and remove members. */
function teamRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {

  router.get('/w/:ws/team', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const answer = await callOperation(deps, res, 'get_team', {});
    if (!answer.ok) {
      // get_team needs manage:org, which only owners hold: a member reads why instead of the list.
      showPage(deps, res, 'Team', html`<p class="notice" role="status">${answer.error.message}</p><h2>Roles</h2>${ROLES}`, { at: 'team' });
      return;
    }
    const team = answer.data as unknown as Team;
    const owner = current.role === 'owner';
    const zone = current.timeZone;
    showPage(
      deps,
      res,
      'Team',
      html`<p>Seats: ${team.seats.used} of ${team.seats.limit} used (members and pending invites).</p>
<h2>Members</h2>
<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Actions</th></tr></thead><tbody>${team.members.map(
        (m) => html`<tr><td>${m.email}</td><td>${m.role}</td><td>${formatTime(m.joinedAt, zone)}</td><td>${
          owner && m.userId !== res.locals.visit!.user.userId ? html`<a href="/w/${current.workspaceId}/team/remove/${m.userId}">Remove ${m.email}</a>` : ''
        }</td></tr>`,
      )}</tbody></table></div>
<h2>Pending invites</h2>
${
  team.invites.length === 0
    ? html`<p>None.</p>`
    : html`<div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Invited</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead><tbody>${team.invites.map(
        (i) => html`<tr><td>${i.email}</td><td>${i.role}</td><td>${formatTime(i.invitedAt, zone)}</td><td>${formatTime(i.expiresAt, zone)}</td><td>${
          owner ? operationForm(res, { operationId: 'revoke_team_invite', hidden: { inviteId: i.inviteId }, button: 'Revoke invite', buttonClass: 'secondary', inline: true }) : ''
        }</td></tr>`,
      )}</tbody></table></div>`
}
<h2>Invite someone</h2>
<p>You see what the invite would do first, then confirm it; the answer shows the link to send them (no email is sent). The link is valid for 7 days.</p>
${operationForm(res, {
  operationId: 'invite_team_member',
  fields: html`<label>Email <input type="email" name="email" required></label>
<label>Role <select name="role"><option value="member" selected>member</option><option value="owner">owner</option></select></label>`,
  button: 'Invite',
  showResult: true,
  id: 'invite',
})}
<h2>Roles</h2>${ROLES}`,
      { at: 'team' },
    );
  });

  router.get('/w/:ws/team/remove/:userId', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const team = await readOperation<Team>(deps, res, 'get_team');
    const member = team.members.find((m) => m.userId === req.params.userId);
    if (member === undefined) {
      showPage(deps, res, 'Not found', html`<p>There is no such member in this workspace.</p>`, { at: 'team', status: 404 });
      return;
    }
    confirmPage(deps, res, {
      at: 'team',
      title: 'Remove team member',
      question: `Remove ${member.email} (${member.role}) from ${current.name}? Their API keys in this workspace stop working; their account and other workspaces stay.`,
      operationId: 'remove_team_member',
      hidden: { userId: member.userId },
      button: `Remove ${member.email}`,
      back: `/w/${current.workspaceId}/team`,
    });
  });
}

export const WORKSPACE_TEAM: DashboardPage = {
  area: 'workspace',
  path: 'team',
  title: 'Team',
  routes: (router, deps, { inWorkspace }) => teamRoutes(router, deps, inWorkspace),
};
