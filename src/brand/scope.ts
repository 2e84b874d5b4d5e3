import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';

/** What a brand write needs: the db (the caller's transaction), the credential's workspace and the clock. */
export interface BrandScope {
  db: Kysely<Database>;
  workspaceId: string;
  clock: Clock;
}
