import getApproval from './get_approval.js';
import listApprovals from './list_approvals.js';

export const approvalTools = [getApproval, listApprovals];
