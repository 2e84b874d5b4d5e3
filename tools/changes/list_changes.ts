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
    'Changes Sightline noticed on its own, newest first, each with its severity and figures: visibility moves beyond the noise, citations gained or lost, competitors, sources, ' +
    'Google top-10/top-3 moves, crawler access, failed deliveries, broken connections, plan limits, replies, lost links, threads. Use from to catch up, or to see why an alert fired.',
  annotations: { title: 'List changes', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({
    kind: changeKind.optional().describe('Only this kind.'),
    severity: changeSeverity.optional().describe('This urgent or more.'),
    engine: engineName.optional().describe('Only about this engine.'),
    queryId: recordId().optional().describe('Only about this tracked query.'),
    from: utcDate('detected on or after').optional(),
    to: utcDate('detected on or before').optional(),
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
