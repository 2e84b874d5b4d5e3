import { z } from 'zod';
import { listChanges } from '../../src/changes/listChanges.js';
import { DAY_MS } from '../../src/shared/time.js';
import { defineTool } from '../define.js';
import { pageFields, pageNumber, pageSize, recordId } from '../fields.js';
import { change, changeKind, changeSeverity, engineName } from './outputs.js';

const utcDate = (what: string) => z.iso.date().describe(`YYYY-MM-DD (UTC): ${what}.`);
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);

export default defineTool({
  operationId: 'list_changes',
  method: 'GET',
  path: '/api/v1/changes',
  scope: 'read:analytics',
  cap: 'plan',
  description:
    'What Sightline noticed on its own, newest first: visibility moves beyond the noise, citations gained or lost, competitors overtaking, ' +
    'new top sources, Google top-10 and top-3 moves, AI-crawler access, failed deliveries, broken connections, plan limits, outreach replies, lost links, relevant threads. ' +
    'Use it to learn what happened since you last looked (from) or why an alert fired; each change has a severity and the figures behind it.',
  annotations: { title: 'List changes', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    kind: changeKind.optional().describe('Only changes of this kind.'),
    severity: changeSeverity.optional().describe('Only changes this urgent or more (critical > warning > info).'),
    engine: engineName.optional().describe('Only changes about this answer engine.'),
    queryId: recordId().optional().describe('Only changes about this tracked query.'),
    from: utcDate('only changes detected on or after this day').optional(),
    to: utcDate('only changes detected on or before this day').optional(),
    page: pageNumber(),
    limit: pageSize(100, 25, 'Changes'),
  }),
  output: z.object({ ...pageFields, changes: z.array(change) }),
  confirm: 'none',
  transaction: 'none',
  handler: (ctx, input) =>
    listChanges(ctx.db, ctx.workspaceId, {
      ...input,
      from: input.from === undefined ? undefined : dayStart(input.from),
      to: input.to === undefined ? undefined : dayStart(input.to) + DAY_MS,
    }),
});
