import { z } from 'zod';
import { BACKLINK_SOURCES, BACKLINK_STATUSES } from '../../src/backlinks/listing.js';
import { isoTime } from '../fields.js';

/** A backlink row as every backlinks operation answers it (src/backlinks/listing.ts backlinkRecord). */
export const backlinkOutput = z.object({
  backlinkId: z.string(),
  linkingUrl: z.string(),
  linkingDomain: z.string(),
  targetUrl: z.string(),
  anchorText: z.string(),
  dofollow: z.boolean(),
  domainAuthority: z.number().nullable().describe("The linking domain's authority in the metric authorityMetric names."),
  authorityMetric: z.string().nullable().describe('dataforseo_domain_rank (0–1000) for index rows; null when unknown.'),
  status: z.enum(BACKLINK_STATUSES),
  source: z.enum(BACKLINK_SOURCES),
  discoveredAt: isoTime().describe('First seen by the index, or when the link was recorded.'),
  placedAt: isoTime().nullable(),
  lastVerifiedAt: isoTime().nullable(),
  lostAt: isoTime().nullable(),
  statusChangedAt: isoTime(),
  checkError: z.string().nullable().describe('Why the last verification could not tell, when it could not.'),
});
