import type { Kysely } from 'kysely';
import type { Database, EngineName } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { enqueueJob } from '../../jobs/queue.js';
import { fromJson } from '../../shared/json.js';
import { toIso } from '../../shared/time.js';
import { WRITER_SETTINGS } from '../../writer/required.js';

/**
 * Fewer answers naming both the brand and a competitor than this (in POSITIONING_DAYS): no summary is made and the
 * writer is not asked, because two or three sentences from one or two answers describe the answers, not the market.
 */
export const MIN_SHARED_ANSWERS = 3;
/** The window the answers are taken from: the same last 30 UTC days as the rest of get_competitors. */
export const POSITIONING_DAYS = '30';

export const POSITIONING_STATUSES = ['summarised', 'not_enough_answers', 'writer_not_configured', 'pending'] as const;
export type PositioningStatus = (typeof POSITIONING_STATUSES)[number];

export interface PositioningAnswer {
  answerId: string;
  engine: EngineName;
  checkedAt: number;
}

/** What the competitor_positioning job stores in competitors.positioning (JSON). */
export type StoredPositioning =
  | {
      status: 'summarised';
      summary: string;
      /** The answers whose passages were sent to the writer: sampleSize of them. */
      answers: PositioningAnswer[];
      sampleSize: number;
      sharedAnswers: number;
      model: string;
      madeAt: number;
    }
  | { status: 'not_enough_answers'; sharedAnswers: number; madeAt: number };

/**
 * Queues the refresh of every competitor's positioning once a check run has closed, in the caller's transaction
 * (which holds the workspace lock). A refresh still queued covers this run's answers too, and a workspace without
 * competitors has nothing to refresh: no job is added then.
 */
export async function queuePositioning(db: Kysely<Database>, clock: Clock, workspaceId: string, runId: string): Promise<void> {
  const [competitor, queued] = await Promise.all([
    db.selectFrom('competitors').select('id').where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).limit(1).executeTakeFirst(),
    db.selectFrom('jobs').select('id').where('workspace_id', '=', workspaceId).where('kind', '=', 'competitor_positioning').where('state', '=', 'queued').limit(1).executeTakeFirst(),
  ]);
  if (competitor !== undefined && queued === undefined) await enqueueJob(db, clock, { workspaceId, kind: 'competitor_positioning', subjectId: runId, payload: { runId } });
}

// A type alias, not an interface: operation answers must be assignable to a plain JSON object.
export type PositioningRecord = {
  status: PositioningStatus;
  summary: string | null;
  note: string | null;
  sharedAnswers: number | null;
  minimumAnswers: number;
  sampleSize: number;
  answers: Array<{ answerId: string; engine: EngineName; checkedAt: string }>;
  model: string | null;
  madeAt: string | null;
};

/** The positioning get_competitors shows: the stored summary, or why there is none. */
export function positioningRecord(stored: string | null, writerConfigured: boolean): PositioningRecord {
  const found = stored === null ? null : fromJson<StoredPositioning>(stored);
  if (found?.status === 'summarised') {
    return {
      status: 'summarised',
      summary: found.summary,
      note: null,
      sharedAnswers: found.sharedAnswers,
      minimumAnswers: MIN_SHARED_ANSWERS,
      sampleSize: found.sampleSize,
      answers: found.answers.map((a) => ({ answerId: a.answerId, engine: a.engine, checkedAt: toIso(a.checkedAt) })),
      model: found.model,
      madeAt: toIso(found.madeAt),
    };
  }
  const none = {
    summary: null,
    sharedAnswers: found?.sharedAnswers ?? null,
    minimumAnswers: MIN_SHARED_ANSWERS,
    sampleSize: 0,
    answers: [],
    model: null,
    madeAt: found === null ? null : toIso(found.madeAt),
  };
  if (!writerConfigured) return { ...none, status: 'writer_not_configured', note: `no writer model is configured to summarise answers: the operator sets ${WRITER_SETTINGS}` };
  if (found === null) return { ...none, status: 'pending', note: 'made when the next check run finishes' };
  return {
    ...none,
    status: 'not_enough_answers',
    note: `not enough answers yet: ${found.sharedAnswers} of the last ${POSITIONING_DAYS} days name both the brand and this competitor; ${MIN_SHARED_ANSWERS} are needed`,
  };
}
