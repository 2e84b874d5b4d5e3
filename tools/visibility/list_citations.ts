import { z } from 'zod';
import { ENGINE_NAMES, type EngineName } from '../../src/visibility/engines/engine.js';
import { DEFAULT_CITATIONS_PAGE, listCitations, MAX_CITATIONS_PAGE, parseBefore } from '../../src/visibility/checks/listCitations.js';
import { defineTool } from '../define.js';
import { citationsPage } from './outputs.js';

export default defineTool({
  operationId: 'list_citations',
  method: 'GET',
  path: '/api/v1/citations',
  scope: 'read:citations',
  cap: 30,
  description:
    'Recent AI answer-engine checks of the tracked queries, newest first: query, engine, and whether the answer cited the brand (cited, mentioned, none, or failed with errorClass). ' +
    'Use it to see the evidence behind the visibility numbers. Page back by passing nextBefore as before.',
  annotations: { title: 'List citation checks', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    model: z
      .enum(ENGINE_NAMES as [EngineName, ...EngineName[]])
      .optional()
      .describe('Only this answer engine.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_CITATIONS_PAGE)
      .default(DEFAULT_CITATIONS_PAGE)
      .describe('Checks per page.'),
    before: z
      .string()
      .trim()
      .refine((value) => parseBefore(value) !== undefined, 'must be an ISO date or date-time with its zone (2026-11-21T09:00:00Z) or epoch milliseconds (1795251600000)')
      .optional()
      .describe("Only older checks: the previous page's nextBefore, an ISO date-time with zone, or epoch milliseconds."),
  }),
  output: citationsPage,
  confirm: 'none',
  handler: (ctx, input) => listCitations(ctx.db, ctx.workspaceId, { model: input.model, limit: input.limit, before: input.before === undefined ? undefined : parseBefore(input.before) }),
});
