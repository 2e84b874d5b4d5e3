import { z } from 'zod';
import { TOP_SOURCES, citationSources } from '../../src/visibility/metrics/sources.js';
import { metricInput } from '../../src/visibility/metrics/window.js';
import { defineTool } from '../define.js';
import { citationSourcesReport } from './outputs.js';

export default defineTool({
  operationId: 'get_citation_sources',
  method: 'GET',
  path: '/api/v1/visibility/sources',
  scope: 'read:citations',
  cap: 'plan',
  description:
    `The ${TOP_SOURCES} domains AI answers cite most over the last 7, 30 or 90 days, with their counts and shares. ` +
    "Use it to find the sites the engines trust for your queries (outreach and content targets); the brand's and competitors' domains are flagged.",
  annotations: { title: 'Get citation sources', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject(metricInput),
  output: citationSourcesReport,
  confirm: 'none',
  handler: (ctx, input) => citationSources(ctx.db, { workspaceId: ctx.workspaceId, now: ctx.clock.now(), ...input }),
});
