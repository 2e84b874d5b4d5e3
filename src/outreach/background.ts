import type { AreaBackground } from '../jobs/background.js';
import { outreachDiscoverJob, queueDailyDiscovery } from './discover.js';
import { outreachRepliesJob, queueMailboxReads } from './replies.js';
import { outreachSendJob } from './sendJob.js';

/** The outreach area's jobs and sweeps (see src/jobs/background.ts). */
export const OUTREACH_BACKGROUND: AreaBackground = {
  jobs: { outreach_send: outreachSendJob, outreach_replies: outreachRepliesJob, outreach_discover: outreachDiscoverJob },
  sweeps: ({ db, clock, config }) => [
    { name: 'outreach-replies', everyMs: config.mail.imapPollMs, run: () => queueMailboxReads(db, clock) },
    { name: 'outreach-discovery', everyMs: 86_400_000, run: () => queueDailyDiscovery(db, clock) },
  ],
};
