import type { Kysely } from 'kysely';
import type { Database, RepurposeChannel, RepurposeState } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { findArticle } from '../content/articles.js';
import { BadInputError } from '../errors.js';
import { pageOf, pageOffset, type PageRequest } from '../shared/paging.js';
import { formProblem } from './channels.js';
import { draftRecord, draftsQuery, findDraft } from './drafts.js';

/** A draft may be rewritten until it is on its way to the scheduler, and again after a push failed. */
const EDITABLE: readonly RepurposeState[] = ['draft', 'failed'];

export interface DraftListRequest extends PageRequest {
  state?: RepurposeState | undefined;
  contentId?: string | undefined;
  channel?: RepurposeChannel | undefined;
}

/** The workspace's drafts, newest first, a page at a time; another workspace's article as the filter is a 404, as anywhere. */
export async function listDrafts(db: Kysely<Database>, workspaceId: string, request: DraftListRequest) {
  if (request.contentId !== undefined) await findArticle(db, workspaceId, request.contentId);
  let rows = draftsQuery(db, workspaceId);
  let count = db
    .selectFrom('repurpose_drafts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId);
  if (request.state !== undefined) {
    rows = rows.where('repurpose_drafts.state', '=', request.state);
    count = count.where('state', '=', request.state);
  }
  if (request.contentId !== undefined) {
    rows = rows.where('repurpose_drafts.content_id', '=', request.contentId);
    count = count.where('content_id', '=', request.contentId);
  }
  if (request.channel !== undefined) {
    rows = rows.where('repurpose_drafts.channel', '=', request.channel);
    count = count.where('channel', '=', request.channel);
  }
  const [page, total] = await Promise.all([
    rows.orderBy('repurpose_drafts.created_at', 'desc').orderBy('repurpose_drafts.id', 'desc').limit(request.limit).offset(pageOffset(request)).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { ...pageOf(request, Number(total.n)), drafts: page.map(draftRecord) };
}

/** Replaces a draft's parts with the user's, checked against its channel's form. */
export async function updateDraftPosts(db: Kysely<Database>, clock: Clock, workspaceId: string, draftId: string, posts: readonly string[]) {
  const draft = await findDraft(db, workspaceId, draftId);
  if (!EDITABLE.includes(draft.state)) throw BadInputError.field('draftId', `the draft is ${draft.state}; only drafts in state draft or failed can be edited`);
  const problem = formProblem(draft.channel, posts);
  if (problem !== undefined) throw BadInputError.field('posts', problem);
  const now = clock.now();
  await db
    .updateTable('repurpose_drafts')
    .set({ posts: JSON.stringify(posts), updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', draftId)
    .execute();
  return draftRecord({ ...draft, posts: JSON.stringify(posts), updated_at: now });
}
