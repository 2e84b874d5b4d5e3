import type { Operation } from '../define.js';
import getTeam from './get_team.js';
import inviteTeamMember from './invite_team_member.js';
import removeTeamMember from './remove_team_member.js';
import revokeTeamInvite from './revoke_team_invite.js';

export const teamTools: Operation[] = [getTeam, inviteTeamMember, revokeTeamInvite, removeTeamMember];
