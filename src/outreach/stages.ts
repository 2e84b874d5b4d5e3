import type { Kysely, Selectable } from 'kysely';
import type { Database, OutreachProspectsTable, OutreachStage } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError, NotFoundError } from '../errors.js';

export const OUTREACH_STAGES = ['identified', 'contacted', 'replied', 'link_placed', 'rejected'] as const satisfies readonly OutreachStage[];

/**
 * Where a prospect may go from each stage. A send moves `identified` to `contacted`, a reply read from the mailbox
 * moves `contacted` to `replied`; a person moves the rest. `link_placed` ends the pipeline (the link is then a backlink
 * that verification follows); `rejected` can be reopened.
 */
export const STAGE_MOVES: Readonly<Record<OutreachStage, readonly OutreachStage[]>> = {
  identified: ['contacted', 'rejected'],
  contacted: ['replied', 'link_placed', 'rejected'],
  replied: ['contacted', 'link_placed', 'rejected'],
  link_placed: [],
  rejected: ['identified'],
};

export type ProspectRow = Selectable<OutreachProspectsTable>;

/** The workspace's prospect; another workspace's is 404, like one that does not exist. */
export async function findProspect(db: Kysely<Database>, workspaceId: string, prospectId: string): Promise<ProspectRow> {
  const row = await db.selectFrom('outreach_prospects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', prospectId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('prospect', prospectId);
  return row;
}

/** 400 naming `stage` when the move is not allowed from where the prospect stands. */
export function checkMove(prospect: ProspectRow, to: OutreachStage): void {
  if (STAGE_MOVES[prospect.stage].includes(to)) return;
  const allowed = STAGE_MOVES[prospect.stage];
  const rule = allowed.length === 0 ? 'nothing follows it' : `it can move to ${allowed.join(', ')}`;
  throw BadInputError.field('stage', `prospect ${prospect.id} is ${prospect.stage}; ${rule}`);
}

/**
 * Moves a prospect in the caller's transaction, if it still stands where it was read (another instance may have
 * moved it meanwhile: then nothing changes and false is returned).
 */
export async function moveProspect(db: Kysely<Database>, clock: Clock, prospect: ProspectRow, to: OutreachStage): Promise<boolean> {
  checkMove(prospect, to);
  const moved = await db
    .updateTable('outreach_prospects')
    .set({ stage: to, stage_changed_at: clock.now() })
    .where('id', '=', prospect.id)
    .where('stage', '=', prospect.stage)
    .executeTakeFirst();
  return moved.numUpdatedRows === 1n;
}
