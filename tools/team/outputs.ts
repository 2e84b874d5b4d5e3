import { z } from 'zod';
import { isoTime } from '../fields.js';

// The records team operations answer with, declared once for all of them.

export const teamRole = z.enum(['owner', 'member']);

export const member = z.object({
  userId: z.string(),
  email: z.string(),
  role: teamRole,
  joinedAt: isoTime(),
});

export const pendingInvite = z.object({
  inviteId: z.string(),
  email: z.string(),
  role: teamRole,
  invitedAt: isoTime(),
  expiresAt: isoTime(),
});

export const team = z.object({
  members: z.array(member),
  invites: z.array(pendingInvite),
  seats: z.object({ used: z.int(), limit: z.int() }),
});

export const createdInvite = z.object({
  inviteId: z.string(),
  email: z.string(),
  role: teamRole,
  expiresAt: isoTime(),
  acceptUrl: z.string(),
});

export const revokedInvite = z.object({ inviteId: z.string(), revoked: z.literal(true) });

export const removedMember = z.object({
  userId: z.string(),
  removed: z.literal(true),
  revokedKeys: z.int().describe('Number of their API keys in this workspace that were revoked.'),
});
