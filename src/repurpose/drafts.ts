import type { Kysely, Selectable } from 'kysely';
import type { RepurposeChannel } from '../../db/schema.js';
import { newId } from '../ids.js';
import type { Database, RepurposeDraftsTable, RepurposeState } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { NotFoundError } from '../errors.js';
import { CHANNEL_FORMS } from './channels.js';

export const REPURPOSE_STATES: readonly RepurposeState[] = ['draft', 'queued', 'pushed', 'failed', 'posted'];

export type DraftRow = Selectable<RepurposeDraftsTable> & { article_title: string };

/** A new draft's row, in `state` (default `draft`), pushed nowhere yet. */
export function newDraftRow(draft: { workspaceId: string; contentId: string; channel: RepurposeChannel; parts: readonly string[]; linkUrl: string; now: number; state?: RepurposeState }): Selectable<RepurposeDraftsTable> {
  return {
    id: newId('rpd'),
    workspace_id: draft.workspaceId,
    content_id: draft.contentId,
    channel: draft.channel,
    posts: JSON.stringify(draft.parts),
    link_url: draft.linkUrl,
    state: draft.state ?? 'draft',
    scheduler: null,
    scheduler_channel_id: null,
    scheduler_channel_name: null,
    scheduled_for: null,
    idempotency_key: null,
    push_job_id: null,
    external_id: null,
    external_url: null,
    pushed_at: null,
    posted_at: null,
    posted_url: null,
    error: null,
    created_at: draft.now,
    updated_at: draft.now,
  };
}

/** Drafts with their article's title, for one workspace. */
export function draftsQuery(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('repurpose_drafts')
    .innerJoin('articles', 'articles.id', 'repurpose_drafts.content_id')
    .selectAll('repurpose_drafts')
    .select('articles.title as article_title')
    .where('repurpose_drafts.workspace_id', '=', workspaceId);
}

/** The draft, or 404 when it is not one of this workspace's. */
export async function findDraft(db: Kysely<Database>, workspaceId: string, draftId: string): Promise<DraftRow> {
  const row = await draftsQuery(db, workspaceId).where('repurpose_drafts.id', '=', draftId).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('repurpose draft', draftId);
  return row;
}

export function draftParts(row: Pick<DraftRow, 'posts'>): string[] {
  return JSON.parse(row.posts) as string[];
}

/** A draft as the operations answer it. */
export function draftRecord(row: DraftRow) {
  const form = CHANNEL_FORMS[row.channel];
  const time = (value: number | null) => toIso(value === null ? null : Number(value));
  return {
    draftId: row.id,
    contentId: row.content_id,
    articleTitle: row.article_title,
    channel: row.channel,
    posts: draftParts(row),
    limits: { maxParts: form.maxParts, maxChars: form.maxChars },
    linkUrl: row.link_url,
    state: row.state,
    scheduler:
      row.scheduler === null || row.scheduler_channel_id === null
        ? null
        : {
            tool: row.scheduler,
            channelId: row.scheduler_channel_id,
            channelName: row.scheduler_channel_name,
            scheduledFor: time(row.scheduled_for),
            postId: row.external_id,
            postUrl: row.external_url,
            pushedAt: time(row.pushed_at),
          },
    postedAt: time(row.posted_at),
    postedUrl: row.posted_url,
    error: row.error,
    createdAt: toIso(Number(row.created_at)),
    updatedAt: toIso(Number(row.updated_at)),
  };
}
