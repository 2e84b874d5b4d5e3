import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.js';
import * as foundation from './migrations/2026_11_21_0001_foundation.js';
import * as approvals from './migrations/2026_11_21_0002_approvals.js';
import * as sessions from './migrations/2026_11_21_0003_sessions.js';
import * as oauth from './migrations/2026_11_21_0004_oauth.js';
import * as deviceLogin from './migrations/2026_11_21_0005_device_login.js';
import * as content from './migrations/2026_11_21_0006_content.js';
import * as visibility from './migrations/2026_11_21_0007_visibility.js';
import * as instances from './migrations/2026_11_24_0008_instances.js';
import * as signingKeyRotation from './migrations/2026_11_24_0009_signing_key_rotation.js';
import * as stepUp from './migrations/2026_11_25_0010_step_up.js';
import * as answersNotShown from './migrations/2026_11_25_0011_answers_not_shown.js';
import * as searchConsolePeriods from './migrations/2026_11_25_0012_search_console_periods.js';
import * as writerUsage from './migrations/2026_11_25_0013_writer_usage.js';
import * as latestChecks from './migrations/2026_11_25_0014_latest_checks.js';
import * as reportOrder from './migrations/2026_11_26_0015_report_order.js';
import * as analyticsScreens from './migrations/2026_11_26_0016_analytics_screens.js';
import * as analyticsSites from './migrations/2026_11_26_0017_analytics_sites.js';
import * as cdn from './migrations/2026_11_26_0018_cdn.js';
import * as sitebuilderInstalls from './migrations/2026_11_26_0019_sitebuilder_installs.js';
import * as siteAnalytics from './migrations/2026_11_26_0020_site_analytics.js';
import * as counter from './migrations/2026_11_26_0021_counter.js';
import * as backlinks from './migrations/2026_11_26_0022_backlinks.js';
import * as backlinkVerification from './migrations/2026_11_26_0025_backlink_verification.js';
import * as outreachMail from './migrations/2026_11_26_0027_outreach_mail.js';
import * as linkNetwork from './migrations/2026_11_26_0028_link_network.js';
import * as social from './migrations/2026_11_26_0029_social.js';
import * as repurpose from './migrations/2026_11_26_0030_repurpose.js';
import * as workspaceTimeZone from './migrations/2026_11_27_0031_workspace_time_zone.js';
import * as grantLastUsed from './migrations/2026_11_27_0032_grant_last_used.js';
import * as namedMentions from './migrations/2026_11_27_0033_named_mentions.js';
import * as accountTrust from './migrations/2026_11_28_0034_account_trust.js';
import * as mcpTasks from './migrations/2026_11_28_0035_mcp_tasks.js';
import * as mcpTaskJobs from './migrations/2026_11_28_0036_mcp_task_jobs.js';
import * as sessionLastSeen from './migrations/2026_11_28_0037_session_last_seen.js';
import * as destinationKinds from './migrations/2026_11_29_0038_destination_kinds.js';
import * as featuredImages from './migrations/2026_11_29_0039_featured_images.js';
import * as changes from './migrations/2026_11_29_0040_changes.js';
import * as crawlerReach from './migrations/2026_11_29_0041_crawler_reach.js';
import * as digestSummaries from './migrations/2026_11_29_0042_digest_summaries.js';

/**
 * Every migration, in order. Names are timestamped so that they sort in the order they were written. Kept by hand so that
 * the build and the tests load the same modules; db/schema.test.ts fails when a file of db/migrations is missing here.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_approvals': approvals,
  '2026_11_21_0003_sessions': sessions,
  '2026_11_21_0004_oauth': oauth,
  '2026_11_21_0005_device_login': deviceLogin,
  '2026_11_21_0006_content': content,
  '2026_11_21_0007_visibility': visibility,
  '2026_11_24_0008_instances': instances,
  '2026_11_24_0009_signing_key_rotation': signingKeyRotation,
  '2026_11_25_0010_step_up': stepUp,
  '2026_11_25_0011_answers_not_shown': answersNotShown,
  '2026_11_25_0012_search_console_periods': searchConsolePeriods,
  '2026_11_25_0013_writer_usage': writerUsage,
  '2026_11_25_0014_latest_checks': latestChecks,
  '2026_11_26_0015_report_order': reportOrder,
  '2026_11_26_0016_analytics_screens': analyticsScreens,
  '2026_11_26_0017_analytics_sites': analyticsSites,
  '2026_11_26_0018_cdn': cdn,
  '2026_11_26_0019_sitebuilder_installs': sitebuilderInstalls,
  '2026_11_26_0020_site_analytics': siteAnalytics,
  '2026_11_26_0021_counter': counter,
  '2026_11_26_0022_backlinks': backlinks,
  '2026_11_26_0025_backlink_verification': backlinkVerification,
  '2026_11_26_0027_outreach_mail': outreachMail,
  '2026_11_26_0028_link_network': linkNetwork,
  '2026_11_26_0029_social': social,
  '2026_11_26_0030_repurpose': repurpose,
  '2026_11_27_0031_workspace_time_zone': workspaceTimeZone,
  '2026_11_27_0032_grant_last_used': grantLastUsed,
  '2026_11_27_0033_named_mentions': namedMentions,
  '2026_11_28_0034_account_trust': accountTrust,
  '2026_11_28_0035_mcp_tasks': mcpTasks,
  '2026_11_28_0036_mcp_task_jobs': mcpTaskJobs,
  '2026_11_28_0037_session_last_seen': sessionLastSeen,
  '2026_11_29_0038_destination_kinds': destinationKinds,
  '2026_11_29_0039_featured_images': featuredImages,
  '2026_11_29_0040_changes': changes,
  '2026_11_29_0041_crawler_reach': crawlerReach,
  '2026_11_29_0042_digest_summaries': digestSummaries,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  // kysely looks for its bookkeeping tables in every schema; confined to one, it must be told which.
  const migrator = new Migrator({ db: handle.db, provider, ...(handle.schema === undefined ? {} : { migrationTableSchema: handle.schema }) });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
