import type { Kysely } from 'kysely';
import type { Database, SocialSourceName } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import { SourcePausedError } from './source.js';

/**
 * Pauses a source asked for, kept in the database so that every instance honours them. `account` tells apart keys
 * or accounts with their own allowance ('' for a source used without one).
 */
export class SourcePauses {
  constructor(
    private readonly db: Kysely<Database>,
    readonly clock: Clock,
  ) {}

  /** Throws SourcePausedError while a pause for the source and account lasts. */
  async check(source: SocialSourceName, account: string): Promise<void> {
    const pause = await this.db
      .selectFrom('social_source_pauses')
      .select(['until', 'reason'])
      .where('source', '=', source)
      .where('account', '=', account)
      .executeTakeFirst();
    const now = this.clock.now();
    if (pause !== undefined && pause.until > now) throw new SourcePausedError(source, pause.until, pause.reason, now);
  }

  /** Records a pause (a longer one already recorded stands) and returns the error to throw. */
  async pause(source: SocialSourceName, account: string, until: number, reason: string): Promise<SourcePausedError> {
    await this.db
      .insertInto('social_source_pauses')
      .values({ source, account, until, reason })
      .onConflict((oc) =>
        oc
          .columns(['source', 'account'])
          .doUpdateSet((eb) => ({ until: eb.ref('excluded.until'), reason: eb.ref('excluded.reason') }))
          .where((eb) => eb('social_source_pauses.until', '<', eb.ref('excluded.until'))),
      )
      .execute();
    return new SourcePausedError(source, until, reason, this.clock.now());
  }
}
