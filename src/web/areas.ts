import express from 'express';
import { AREA_TITLES, type Area, type AreaId, type DashboardPage, type PageStacks } from './dashboardPage.js';
import { pageRoute } from './paths.js';
import type { DashboardDeps } from './pageContext.js';
import { ANALYTICS_ENGAGEMENT } from './pages/analytics/engagement.js';
import { ANALYTICS_LEADS } from './pages/analytics/leads.js';
import { ANALYTICS_REPORTS } from './pages/analytics/reports.js';
import { ANALYTICS_SOURCES } from './pages/analytics/sources.js';
import { ANALYTICS_TRAFFIC } from './pages/analytics/traffic.js';
import { BRAND_GUIDELINES } from './pages/brand/guidelines.js';
import { BRAND_ICPS } from './pages/brand/icps.js';
import { BRAND_IDENTITY } from './pages/brand/identity.js';
import { BRAND_PRODUCTS } from './pages/brand/products.js';
import { BRAND_PROFILE } from './pages/brand/profile.js';
import { CONTENT_CALENDAR } from './pages/content/calendar.js';
import { CONTENT_IDEAS, CONTENT_TITLES } from './pages/content/planning.js';
import { CONTENT_POLICY } from './pages/content/policy.js';
import { GROWTH_BACKLINKS } from './pages/growth/backlinks.js';
import { GROWTH_NETWORK } from './pages/growth/network.js';
import { GROWTH_OUTREACH } from './pages/growth/outreach.js';
import { GROWTH_REPURPOSE } from './pages/growth/repurpose.js';
import { GROWTH_SOCIAL } from './pages/growth/social.js';
import { OVERVIEW_CHANGES } from './pages/overview/changes.js';
import { OVERVIEW } from './pages/overview/overview.js';
import { PUBLISHING_DELIVERIES } from './pages/publishing/deliveries.js';
import { PUBLISHING_DESTINATIONS } from './pages/publishing/destinations.js';
import { VISIBILITY_CITATIONS } from './pages/visibility/citations.js';
import { VISIBILITY_COMPETITORS } from './pages/visibility/competitors.js';
import { VISIBILITY_CRAWLERS } from './pages/visibility/crawlers.js';
import { VISIBILITY_QUERIES } from './pages/visibility/queries.js';
import { VISIBILITY_RANKINGS } from './pages/visibility/rankings.js';
import { VISIBILITY_SENTIMENT, VISIBILITY_SOURCES } from './pages/visibility/reports.js';
import { VISIBILITY_SCORE } from './pages/visibility/score.js';
import { WORKSPACE_APPROVALS } from './pages/workspace/approvals.js';
import { WORKSPACE_APPS } from './pages/workspace/apps.js';
import { WORKSPACE_EMAIL } from './pages/workspace/email.js';
import { WORKSPACE_BILLING, WORKSPACE_EXPORT, WORKSPACE_SUPPORT } from './pages/workspace/account.js';
import { WORKSPACE_KEYS } from './pages/workspace/keys.js';
import { WORKSPACE_SETTINGS } from './pages/workspace/settings.js';
import { WORKSPACE_TEAM } from './pages/workspace/team.js';

/** Every page of the dashboard's menus, in menu order within each area; the first page of an area is where its entry leads. */
export const DASHBOARD_PAGES: readonly DashboardPage[] = [
  OVERVIEW,
  OVERVIEW_CHANGES,
  VISIBILITY_SCORE,
  VISIBILITY_QUERIES,
  VISIBILITY_COMPETITORS,
  VISIBILITY_CITATIONS,
  VISIBILITY_SOURCES,
  VISIBILITY_SENTIMENT,
  VISIBILITY_RANKINGS,
  VISIBILITY_CRAWLERS,
  CONTENT_CALENDAR,
  CONTENT_IDEAS,
  CONTENT_TITLES,
  CONTENT_POLICY,
  BRAND_PROFILE,
  BRAND_IDENTITY,
  BRAND_ICPS,
  BRAND_PRODUCTS,
  BRAND_GUIDELINES,
  PUBLISHING_DESTINATIONS,
  PUBLISHING_DELIVERIES,
  GROWTH_BACKLINKS,
  GROWTH_OUTREACH,
  GROWTH_NETWORK,
  GROWTH_SOCIAL,
  GROWTH_REPURPOSE,
  ANALYTICS_TRAFFIC,
  ANALYTICS_ENGAGEMENT,
  ANALYTICS_SOURCES,
  ANALYTICS_REPORTS,
  ANALYTICS_LEADS,
  WORKSPACE_SETTINGS,
  WORKSPACE_EMAIL,
  WORKSPACE_TEAM,
  WORKSPACE_KEYS,
  WORKSPACE_APPS,
  WORKSPACE_APPROVALS,
  WORKSPACE_BILLING,
  WORKSPACE_SUPPORT,
  WORKSPACE_EXPORT,
];

/** The dashboard's map, drawn from the pages: the menus come from it, and the browser tests walk every page in it. */
export const AREAS: readonly Area[] = (Object.entries(AREA_TITLES) as Array<[AreaId, string]>).map(([id, title]) => ({
  id,
  title,
  pages: DASHBOARD_PAGES.filter((page) => page.area === id),
}));

/** Every page's routes: its own GET behind the workspace stack, then whatever else it declares. */
export function dashboardPageRoutes(deps: DashboardDeps, stacks: PageStacks): express.Router {
  const router = express.Router();
  for (const page of DASHBOARD_PAGES) {
    const show = page.show;
    if (show !== undefined) router.get(pageRoute(page.path), ...stacks.inWorkspace, (req, res) => show(deps, req, res));
    page.routes?.(router, deps, stacks);
  }
  return router;
}
