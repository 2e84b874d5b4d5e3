import type { AuthenticatedOperation } from '../define.js';
import activateAnalyticsScreen from './activate_analytics_screen.js';
import getAgentActivity from './get_agent_activity.js';
import getAnalyticsSources from './get_analytics_sources.js';
import getCdnConnectUrl from './get_cdn_connect_url.js';
import getCrawlerAccess from './get_crawler_access.js';
import getFunnel from './get_funnel.js';
import getGoogleVsAi from './get_google_vs_ai.js';
import getPageEngagement from './get_page_engagement.js';
import getReportsSummary from './get_reports_summary.js';
import getReportsWins from './get_reports_wins.js';
import getTrafficOverview from './get_traffic_overview.js';
import listLeads from './list_leads.js';
import setAnalyticsSource from './set_analytics_source.js';
import getRankings from './get_rankings_.js';
import installSitebuilderCustomCode from './install_sitebuilder_custom_code.js';
import installSitebuilderEmbed from './install_sitebuilder_embed.js';
import listCdnZones from './list_cdn_zones.js';
import selectCdnZone from './select_cdn_zone.js';

export const analyticsTools: readonly AuthenticatedOperation[] = [
  getRankings,
  getGoogleVsAi,
  getCrawlerAccess,
  activateAnalyticsScreen,
  getAgentActivity,
  getPageEngagement,
  getTrafficOverview,
  getAnalyticsSources,
  setAnalyticsSource,
  getFunnel,
  getReportsSummary,
  getReportsWins,
  listLeads,
  getCdnConnectUrl,
  listCdnZones,
  selectCdnZone,
  installSitebuilderEmbed,
  installSitebuilderCustomCode,
];
