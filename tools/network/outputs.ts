import { z } from 'zod';
import { LINK_ATTRIBUTES, LINK_STATUSES, PLACEMENT_STATES } from '../../src/network/network.js';
import { isoTime } from '../fields.js';

export const linkAttribute = z.enum(LINK_ATTRIBUTES);
export const placementState = z.enum(PLACEMENT_STATES);

const placement = z.object({
  placementId: z.string(),
  state: placementState,
  otherSite: z.string().nullable().describe('The domain of the site on the other side.'),
  otherSiteName: z.string().nullable(),
  hostArticleUrl: z.string(),
  targetUrl: z.string(),
  anchorText: z.string(),
  rel: linkAttribute.describe('dofollow: the link has no rel attribute.'),
  similarity: z.number().describe('Cosine similarity of the host article and the target page.'),
  language: z.string(),
  hostApproved: z.boolean(),
  targetApproved: z.boolean(),
  approvalUrl: z.string().nullable().describe("Where this workspace's owner approves it, while that approval is pending."),
  proposedAt: isoTime(),
  liveAt: isoTime().nullable(),
  endedAt: isoTime().nullable(),
  endReason: z.string().nullable(),
  linkStatus: z.enum(LINK_STATUSES).nullable().describe('Verification on the host page; null before live.'),
  lastVerifiedAt: isoTime().nullable(),
  lostAt: isoTime().nullable(),
});

export const linkNetwork = z.object({
  credits: z.object({
    balance: z.number().int(),
    granted: z.number().int().describe('Starting credits of the first join.'),
    earned: z.number().int().describe('One per placement hosted that went live.'),
    spent: z.number().int().describe('One per placement received that went live.'),
    history: z.array(z.object({ amount: z.number().int(), reason: z.enum(['joined', 'hosted', 'received']), placementId: z.string().nullable(), at: isoTime() })),
  }),
  membership: z.object({
    member: z.boolean(),
    joinedAt: isoTime().nullable(),
    leftAt: isoTime().nullable(),
    linkAttribute: linkAttribute.nullable(),
    lastMatchAt: isoTime().nullable(),
    lastMatchNote: z.string().nullable().describe('What the last matching run proposed, or why it proposed nothing.'),
  }),
  given: z.array(placement).describe('Links hosted in my articles, newest first (100 at most).'),
  received: z.array(placement).describe('Links pointing to my pages, newest first (100 at most).'),
});

export const membershipAnswer = z.object({
  member: z.boolean(),
  joinedAt: isoTime().nullable(),
  leftAt: isoTime().nullable(),
  linkAttribute: linkAttribute.nullable(),
  creditsGranted: z.number().int(),
  matchJobId: z.string().nullable().describe('The matching job queued on joining (get_job).'),
  retiredPlacements: z.number().int(),
  republishedArticles: z.number().int(),
  storedArticles: z.number().int().describe('Host articles not republishable now, stored without the link.'),
});

export const removedPlacement = z.object({
  placementId: z.string(),
  state: z.literal('retired'),
  retiredAt: isoTime(),
  republished: z.boolean().describe('True when a live link was removed from its host article through a republish.'),
  note: z.string().nullable().describe('Why a live link was not republished, and what was done instead.'),
});

export const acceptedPlacement = z.object({
  placementId: z.string(),
  side: z.enum(['host', 'target']),
  state: placementState,
  hostApproved: z.boolean(),
  targetApproved: z.boolean(),
  liveAt: isoTime().nullable(),
  reason: z.string().nullable(),
});
