import type { AuthenticatedOperation } from '../define.js';
import draftOutreachReply from './draft_outreach_reply.js';
import queueOutreachSend from './queue_outreach_send.js';

export const outreachTools: readonly AuthenticatedOperation[] = [draftOutreachReply, queueOutreachSend];
