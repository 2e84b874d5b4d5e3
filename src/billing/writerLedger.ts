import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { DAY_MS, isoDate } from '../shared/time.js';
import type { UsageMeter, Writer, WriterCall, WriterModel, WriterPurpose, WriterUsage } from '../writer/model.js';

const WEEK_MS = 7 * DAY_MS;

/**
 * The writer whose every call leaves a writer_usage row. The row is written on `db` itself, never in the caller's
 * transaction, so an operation that fails after the call still leaves the tokens it cost on the ledger.
 */
export function bookedWriter(writer: WriterModel, db: Kysely<Database>, clock: Clock): Writer {
  async function booked<T>(call: WriterCall, model: string, run: (meter: UsageMeter) => Promise<T>): Promise<T> {
    const spent: WriterUsage = { promptTokens: 0, completionTokens: 0 };
    let answered = false;
    try {
      return await run({
        add(usage) {
          answered = true;
          spent.promptTokens += usage.promptTokens;
          spent.completionTokens += usage.completionTokens;
          call.meter?.add(usage);
        },
      });
    } finally {
      // A call the provider answered costs its tokens even when it then fails (a refusal, an answer off the schema);
      // one that never got an answer (a timeout, a 5xx) reported none.
      if (answered) await recordWriterUsage(db, clock, call, model, spent);
    }
  }
  return {
    model: writer.model,
    embeddingModel: writer.embeddingModel,
    structured: (prompt, call) => booked(call, writer.model, (meter) => writer.structured(prompt, meter)),
    embed: (texts, call) => booked(call, writer.embeddingModel ?? writer.model, (meter) => writer.embed(texts, meter)),
  };
}

async function recordWriterUsage(db: Kysely<Database>, clock: Clock, call: WriterCall, model: string, spent: WriterUsage): Promise<void> {
  await db
    .insertInto('writer_usage')
    .values({
      id: newId('wu'),
      workspace_id: call.workspaceId,
      purpose: call.purpose,
      model,
      prompt_tokens: spent.promptTokens,
      completion_tokens: spent.completionTokens,
      recorded_at: clock.now(),
    })
    .execute();
}

/** UTC midnight of the Monday that starts the week holding `time` (1970-01-01 was a Thursday). */
export function utcWeekStart(time: number): number {
  const day = Math.floor(time / DAY_MS);
  return (day - ((day + 3) % 7)) * DAY_MS;
}

async function weekUsage(db: Kysely<Database>, workspaceId: string, from: number) {
  const rows = await db
    .selectFrom('writer_usage')
    .select((eb) => [
      'purpose',
      'model',
      eb.fn.countAll<number | string>().as('calls'),
      eb.fn.sum<number | string>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number | string>('completion_tokens').as('completion_tokens'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('recorded_at', '>=', from)
    .where('recorded_at', '<', from + WEEK_MS)
    .groupBy(['purpose', 'model'])
    .orderBy('purpose')
    .orderBy('model')
    .execute();
  const byPurpose = rows.map((r) => ({
    purpose: r.purpose as WriterPurpose,
    model: r.model,
    calls: Number(r.calls),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
  }));
  return {
    from: isoDate(from),
    calls: byPurpose.reduce((sum, r) => sum + r.calls, 0),
    promptTokens: byPurpose.reduce((sum, r) => sum + r.promptTokens, 0),
    completionTokens: byPurpose.reduce((sum, r) => sum + r.completionTokens, 0),
    byPurpose,
  };
}

/** The writer tokens of the current and the previous UTC week (Monday to Sunday), by purpose and model. */
export async function writerUsageByWeek(db: Kysely<Database>, workspaceId: string, now: number) {
  const thisWeek = utcWeekStart(now);
  const [current, previous] = await Promise.all([weekUsage(db, workspaceId, thisWeek), weekUsage(db, workspaceId, thisWeek - WEEK_MS)]);
  return { thisWeek: current, lastWeek: previous };
}
