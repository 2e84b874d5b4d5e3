import type { Kysely } from 'kysely';
import type { Database, SocialThreadStatus } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { findThread, threadRecord, type ThreadRow } from './threads.js';

/** The statuses a person sets; `closed` is the service's, when the source locked, deleted or archived the thread. */
export const SETTABLE_STATUSES = ['new', 'drafted', 'replied', 'dismissed'] as const satisfies readonly SocialThreadStatus[];
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/**
 * Where a thread may go from each status. A draft moves `new` to `drafted`; a person posts the reply and moves it to
 * `replied`, or dismisses it. `replied` and `dismissed` can be undone; a `closed` thread can only be dismissed.
 * `drafted` needs a stored draft.
 */
export const STATUS_MOVES: Readonly<Record<SocialThreadStatus, readonly SettableStatus[]>> = {
  new: ['drafted', 'replied', 'dismissed'],
  drafted: ['new', 'replied', 'dismissed'],
  replied: ['new', 'drafted'],
  dismissed: ['new', 'drafted'],
  closed: ['dismissed'],
};

function checkMove(thread: ThreadRow, to: SettableStatus): void {
  const allowed = STATUS_MOVES[thread.status];
  if (!allowed.includes(to)) {
    const rule = thread.status === 'closed' ? `the source ${thread.source_state} it, so it can only be dismissed` : `it can move to ${allowed.join(', ')}`;
    throw BadInputError.field('status', `thread ${thread.id} is ${thread.status}; ${rule}`);
  }
  if (to === 'drafted' && thread.reply_draft === null) throw BadInputError.field('status', `thread ${thread.id} has no reply draft yet: draft one with draft_social_reply`);
}

/** Moves a thread; `replyUrl` (only with `replied`) records where the reply was posted. */
export async function setThreadStatus(db: Kysely<Database>, clock: Clock, workspaceId: string, threadId: string, to: SettableStatus, replyUrl: string | undefined) {
  if (replyUrl !== undefined && to !== 'replied') throw BadInputError.field('replyUrl', 'only goes with status replied');
  const thread = await findThread(db, workspaceId, threadId);
  if (thread.status !== to) checkMove(thread, to);
  const now = clock.now();
  await db
    .updateTable('social_threads')
    .set({
      status: to,
      ...(thread.status === to ? {} : { status_changed_at: now }),
      ...(to === 'replied' ? { reply_url: replyUrl ?? thread.reply_url } : { reply_url: null }),
      updated_at: now,
    })
    .where('id', '=', thread.id)
    .execute();
  return threadRecord(await findThread(db, workspaceId, threadId), now);
}
