import { z } from 'zod';
import { AGENT_LANES } from '../../src/analytics/agentActivity.js';
import { buildDigest, requestedWeek } from '../../src/changes/digest/digest.js';
import { defineTool } from '../define.js';
import { reportWins } from '../analytics/outputs.js';
import { rate } from '../visibility/outputs.js';
import { change } from './outputs.js';

const interval = z.object({ low: z.number(), high: z.number() });
const day = () => z.string().describe('YYYY-MM-DD, UTC.');

export default defineTool({
  operationId: 'get_digest',
  method: 'GET',
  path: '/api/v1/changes/digest',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    'The weekly digest of any week (Monday to Sunday, UTC), as Sightline mails it: the changes worth reading (most severe first), the visibility score with its range and the mention rate with its 95 % interval over an 8-week trend, ' +
    'wins and losses in citations and ranks, what the agents ran, and the content ideas that would close the biggest gaps. ' +
    'Use it for a weekly summary or to see what a digest said; list_changes pages through all changes.',
  annotations: { title: 'Get digest', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    week: z.iso.date().optional().describe('YYYY-MM-DD: any day of the week (Monday to Sunday, UTC). Default: the last week that has ended.'),
  }),
  output: z.object({
    week: z.object({ from: day().describe('The Monday.'), to: day().describe('The Sunday.') }),
    complete: z.boolean().describe('False while the week is still running: its figures are partial.'),
    summary: z.object({
      text: z.string(),
      by: z.enum(['writer', 'template']).describe('writer: the writer model phrased the figures (it adds none); template: plain sentences made from them.'),
      model: z.string().nullable(),
    }),
    changes: z.object({
      total: z.int(),
      bySeverity: z.object({ critical: z.int(), warning: z.int(), info: z.int() }),
      shown: z.array(change).describe('At most 10, most severe first, then newest.'),
      more: z.int().describe('Changes of the week not shown (list_changes with from and to lists them).'),
    }),
    visibility: z.object({
      definition: z.string(),
      mentionRateDefinition: z.string(),
      score: z.number().nullable().describe('0-100; null with reason when no answer was checked in the week.'),
      range: interval.nullable(),
      reason: z.string().nullable(),
      mentionRate: rate,
      previousScore: z.number().nullable(),
      mentionRateChange: z.enum(['up', 'down', 'steady']).nullable().describe('Against the week before: up or down only when the 95 % intervals do not overlap.'),
      trend: z.array(z.object({ week: day().describe('Its Monday.'), score: z.number().nullable(), range: interval.nullable(), reason: z.string().nullable(), mentionRate: rate })),
    }),
    wins: z.object({
      changes: z.array(change).describe('Citations gained and Google top-10 or top-3 entries of the week (at most 5).'),
      reports: reportWins.pick({ newlyCited: true, aiTrafficGrowth: true, newReferrers: true }).nullable().describe('The Reports screen\u2019s wins of the week; null until that screen is activated.'),
    }),
    losses: z.object({ changes: z.array(change).describe('Citations lost and Google top-10 or top-3 exits of the week (at most 5).') }),
    agents: z.object({
      definition: z.string(),
      runs: z.int(),
      failed: z.int(),
      lanes: z.array(z.object({ lane: z.enum(AGENT_LANES), runs: z.int(), succeeded: z.int(), failed: z.int(), inProgress: z.int() })),
    }),
    next: z
      .array(z.object({ queryId: z.string(), queryText: z.string(), suggestedTitle: z.string().nullable(), score: z.number().nullable(), citationGapRate: z.number().nullable() }))
      .describe('The best-scored content ideas now (get_content_ideas): what to write next.'),
  }),
  confirm: 'none',
  // The writer model may phrase the summary: no transaction is held while it answers.
  transaction: 'none',
  handler: (ctx, input) => {
    const now = ctx.clock.now();
    // A writer failure only means the plain summary; the answer says which was used.
    return buildDigest(ctx.db, ctx.services.writer, ctx.workspaceId, requestedWeek(input.week, now), now, () => {});
  },
});
