import { z } from 'zod';
import { CHANGE_KIND_NAMES, CHANGE_SEVERITIES } from '../../src/changes/kinds.js';
import { ENGINE_NAMES } from '../../src/visibility/engines/engine.js';
import type { EngineName } from '../../db/schema.js';
import { isoTime } from '../fields.js';

export const changeKind = z.enum(CHANGE_KIND_NAMES);
export const changeSeverity = z.enum(CHANGE_SEVERITIES);
export const engineName = z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]]);

/** One change as list_changes, get_digest and the webhook events carry it. */
export const change = z.object({
  id: z.string(),
  kind: changeKind,
  severity: changeSeverity,
  title: z.string().describe('One line: what changed, with the figure.'),
  detectedAt: isoTime(),
  engine: engineName.nullable(),
  queryId: z.string().nullable(),
  query: z.string().nullable().describe('The tracked query it is about.'),
  runId: z.string().nullable().describe('The check run that showed it; null for changes found otherwise (a failed delivery).'),
  details: z.record(z.string(), z.unknown()).describe("The kind's figures: before and after, their 95 % intervals and sample sizes."),
});
