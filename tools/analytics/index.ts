import type { AuthenticatedOperation } from '../define.js';
import activateAnalyticsScreen from './activate_analytics_screen.js';
import getAgentActivity from './get_agent_activity.js';
import getCrawlerAccess from './get_crawler_access.js';
import getGoogleVsAi from './get_google_vs_ai.js';
import getRankings from './get_rankings_.js';
import installSitebuilderCustomCode from './install_sitebuilder_custom_code.js';
import installSitebuilderEmbed from './install_sitebuilder_embed.js';

export const analyticsTools: readonly AuthenticatedOperation[] = [getRankings, getGoogleVsAi, getCrawlerAccess, activateAnalyticsScreen, getAgentActivity, installSitebuilderEmbed, installSitebuilderCustomCode];
