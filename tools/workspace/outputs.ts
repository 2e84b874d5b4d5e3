import { z } from 'zod';
import { isoTime } from '../fields.js';

// The records workspace operations answer with, declared once for all of them.

export const connectedApp = z.object({
  grantId: z.string(),
  clientId: z.string(),
  clientName: z.string().describe('The name the app registered with; its client_id when it registered none.'),
  userId: z.string(),
  userEmail: z.string().describe('The person who authorized it; the app acts as them.'),
  scopes: z.array(z.string()),
  authorizedAt: isoTime(),
  lastUsedAt: isoTime().nullable().describe('Last call with one of its tokens, to the minute; null if never.'),
});
