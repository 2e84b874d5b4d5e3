import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { BadInputError } from '../../errors.js';
import type { Writer } from '../../writer/model.js';
import { digestFigures } from './compute.js';
import { digestSummary } from './summary.js';
import { lastCompleteWeek, weekEnded, weekOfDate, type DigestWeek } from './week.js';

/** The week a get_digest call asks for: the week of the given day, else the last complete week; never one not begun. */
export function requestedWeek(date: string | undefined, now: number): DigestWeek {
  if (date === undefined) return lastCompleteWeek(now);
  const week = weekOfDate(date);
  if (week.from > now) throw BadInputError.field('week', 'must be a day of a week that has begun (the week runs Monday to Sunday, UTC)');
  return week;
}

/** A week's digest: the figures, whether the week is over, and the summary phrased from them. */
export async function buildDigest(
  db: Kysely<Database>,
  writer: Writer | undefined,
  workspaceId: string,
  week: DigestWeek,
  now: number,
  onWriterFailure: (error: unknown) => void,
) {
  const figures = await digestFigures(db, workspaceId, week, now);
  const summary = await digestSummary(figures, writer, { db, workspaceId, now }, onWriterFailure);
  return { ...figures, complete: weekEnded(week, now), summary };
}

export type Digest = Awaited<ReturnType<typeof buildDigest>>;
