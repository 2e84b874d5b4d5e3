import type { AuthenticatedOperation } from '../define.js';
import addOutreachProspects from './add_outreach_prospects.js';
import draftOutreachReply from './draft_outreach_reply.js';
import findOutreachContact from './find_outreach_contact.js';
import getOutreachThread from './get_outreach_thread.js';
import listOutreachProspects from './list_outreach_prospects.js';
import listOutreachSuppressions from './list_outreach_suppressions.js';
import queueOutreachSend from './queue_outreach_send.js';
import setOutreachStatus from './set_outreach_status.js';
import setOutreachSuppression from './set_outreach_suppression.js';
import updateOutreachDraft from './update_outreach_draft.js';

export const outreachTools: readonly AuthenticatedOperation[] = [
  listOutreachProspects,
  addOutreachProspects,
  findOutreachContact,
  draftOutreachReply,
  getOutreachThread,
  updateOutreachDraft,
  queueOutreachSend,
  setOutreachStatus,
  listOutreachSuppressions,
  setOutreachSuppression,
];
