import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../../db/schema.js';
import type { CounterEvent } from './events.js';
import { recordCounterEvents } from './record.js';

/** A batch is written when it holds this many events, or after FLUSH_MS, whichever comes first. */
const BATCH_SIZE = 500;
const FLUSH_MS = 200;
/** While the database does not answer, events wait up to this many; beyond, the oldest are dropped (and logged). */
const MAX_WAITING = 100_000;

/**
 * Accepted events wait here a fraction of a second and are written in batches, one transaction each: the collect
 * endpoint answers at once and the database sees a few large writes instead of thousands of small ones. Only one batch
 * is written at a time per process; what another instance must see is in the database within FLUSH_MS.
 */
export class CounterIngest {
  private waiting: CounterEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
  ) {}

  add(event: CounterEvent): void {
    this.waiting.push(event);
    if (this.waiting.length > MAX_WAITING) {
      const dropped = this.waiting.splice(0, this.waiting.length - MAX_WAITING);
      this.logger.error({ dropped: dropped.length }, 'counter events dropped: the database has not taken a batch for too long');
    }
    if (this.waiting.length >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /**
   * Writes everything waiting, a batch at a time, events that arrive meanwhile included (tests and shutdown call it; it
   * resolves when all of it is stored or a batch failed). Callers share the one drain under way, so that a burst of
   * events does not queue a flush per event.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH_SIZE);
      try {
        await recordCounterEvents(this.db, batch);
      } catch (error) {
        // Put back in front, to be tried with the next batch; the database may be restarting.
        this.waiting.unshift(...batch);
        this.logger.error({ err: error, events: batch.length }, 'counter batch not written; it will be retried');
        this.timer ??= setTimeout(() => void this.flush(), 1000);
        return;
      }
    }
  }

  /** On shutdown: everything waiting is written once more; a failure then is logged. */
  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
