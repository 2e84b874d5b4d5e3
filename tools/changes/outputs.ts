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

export const alertRule = z.object({
  kind: changeKind,
  severity: changeSeverity,
  definition: z.string(),
  threshold: z.object({ meaning: z.string(), default: z.number(), min: z.number(), max: z.number() }).nullable().describe('null: the kind is only on or off.'),
  perEngine: z.boolean(),
  perQuery: z.boolean(),
  rule: z.object({
    enabled: z.boolean(),
    threshold: z.number().nullable(),
    engines: z.array(engineName).describe('Empty: every engine.'),
    queryIds: z.array(z.string()).describe('Empty: every query.'),
  }),
});

export const alertChannel = z.object({
  channelId: z.string(),
  kind: z.enum(['slack', 'discord', 'teams', 'webhook']),
  name: z.string(),
  target: z.string().nullable().describe('The incoming-webhook URL, masked; null for kind webhook.'),
  destinationId: z.string().nullable(),
  minSeverity: changeSeverity,
  createdAt: isoTime(),
  lastSend: z
    .object({ at: isoTime(), state: z.string(), statusCode: z.int().nullable(), error: z.string().nullable() })
    .nullable(),
});
