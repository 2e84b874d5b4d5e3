import getApproval from './get_approval.js';

export const approvalTools = [getApproval];
