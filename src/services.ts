import type { SafeFetcher } from './outbound/safeFetch.js';
import type { WriterModel } from './writer/model.js';

/** Outside providers the handlers and jobs reach, built once from the configuration. */
export interface Services {
  /** Undefined when WRITER_* is not configured: operations that need it answer 400 naming the settings. */
  writer: WriterModel | undefined;
  /** Requests to addresses customers choose (webhooks, sitemaps, their pages): https only, public addresses only. */
  outbound: SafeFetcher;
  timing: Timing;
}

/** Delays the specification fixes; tests shorten them instead of sleeping. */
export interface Timing {
  /** A delivery still running after this counts as failed (the specification: 30 seconds). */
  webhookTimeoutMs: number;
  /** How long after a publish the live URL is loaded to check that the article renders (about two minutes). */
  renderCheckDelayMs: number;
}

export const SPECIFIED_TIMING: Timing = { webhookTimeoutMs: 30_000, renderCheckDelayMs: 120_000 };
