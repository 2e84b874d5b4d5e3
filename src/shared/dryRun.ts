import type { JsonObject } from './objects.js';

/** A dry-run note with facts a client can act on (flags, dates); the dry-run answer carries `details` beside `note`. */
export interface DryRunNote {
  note: string;
  details: JsonObject;
}
