import type { Kysely, Selectable } from 'kysely';
import type { Database, OutreachSuppressionsTable, SuppressionReason } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { toIso } from '../shared/time.js';
import { normaliseAddress, suppress } from './messages.js';

export const SUPPRESSION_REASONS = ['bounce', 'opt_out', 'asked', 'manual'] as const satisfies readonly SuppressionReason[];

type SuppressionRow = Selectable<OutreachSuppressionsTable>;

export function suppressionRecord(row: SuppressionRow) {
  return { address: row.email, reason: row.reason, domainWide: row.email.startsWith('*@'), createdAt: toIso(Number(row.created_at)) };
}

/** The workspace's suppression list, newest first, a page at a time. */
export async function listSuppressions(db: Kysely<Database>, workspaceId: string, request: PageRequest) {
  const rows = db.selectFrom('outreach_suppressions').where('workspace_id', '=', workspaceId);
  const [page, count] = await Promise.all([
    rows.selectAll().orderBy('created_at', 'desc').orderBy('email').limit(request.limit).offset(pageOffset(request)).execute(),
    rows.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ...pageOf(request, Number(count.n)), suppressions: page.map(suppressionRecord) };
}

/**
 * Adds an address (or `*@domain`) to the list as `manual`, or takes it off. An address already on the list keeps its
 * reason and date: the first reason is the one that explains it. Taking off a `bounce` is allowed; the next send will
 * bounce again and put it back.
 */
export async function setSuppression(db: Kysely<Database>, clock: Clock, workspaceId: string, input: { address: string; suppressed: boolean }) {
  const address = normaliseAddress(input.address);
  const find = () => db.selectFrom('outreach_suppressions').selectAll().where('workspace_id', '=', workspaceId).where('email', '=', address).executeTakeFirst();
  const before = await find();
  if (input.suppressed) {
    if (before === undefined) await suppress(db, clock, workspaceId, address, 'manual');
  } else if (before !== undefined) {
    await db.deleteFrom('outreach_suppressions').where('workspace_id', '=', workspaceId).where('email', '=', address).execute();
  }
  const after = input.suppressed ? await find() : undefined;
  return {
    address,
    suppressed: after !== undefined,
    changed: (before === undefined) !== (after === undefined),
    suppression: after === undefined ? null : suppressionRecord(after),
    removed: !input.suppressed && before !== undefined ? suppressionRecord(before) : null,
  };
}
