import { backlinkSyncJob } from '../backlinks/index/sync.js';
import { cdnSyncJob } from '../analytics/cdn/sync.js';
import { outreachDiscoverJob } from '../outreach/discover.js';
import { linkNetworkMatchJob } from '../network/matching.js';
import { backlinkVerifyJob } from '../backlinks/verify.js';
import { writeArticleJob } from '../content/writeArticleJob.js';
import { deliverJob, renderCheckJob } from '../publishing/deliveryJobs.js';
import { outreachRepliesJob } from '../outreach/replies.js';
import { outreachSendJob } from '../outreach/sendJob.js';
import { repurposePushJob } from '../repurpose/pushJob.js';
import { engineCheckJob, rankCheckJob } from '../visibility/checks/checkJobs.js';
import { checkRunJob } from '../visibility/checks/onDemand.js';
import { positioningJob } from '../visibility/competitors/positioningJob.js';
import { searchConsoleSyncJob } from '../visibility/searchConsole/syncJob.js';
import { socialSearchJob } from '../social/search.js';
import type { JobKind } from './queue.js';
import type { JobHandler } from './worker.js';

/** The handler of every job kind. */
export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  write_article: writeArticleJob,
  deliver: deliverJob,
  render_check: renderCheckJob,
  check_run: checkRunJob,
  engine_check: engineCheckJob,
  rank_check: rankCheckJob,
  search_console_sync: searchConsoleSyncJob,
  competitor_positioning: positioningJob,
  cdn_sync: cdnSyncJob,
  outreach_send: outreachSendJob,
  outreach_replies: outreachRepliesJob,
  outreach_discover: outreachDiscoverJob,
  backlink_sync: backlinkSyncJob,
  link_network_match: linkNetworkMatchJob,
  backlink_verify: backlinkVerifyJob,
  social_search: socialSearchJob,
  repurpose_push: repurposePushJob,
};
