/** One page of a dashboard area: its path under /w/:ws/ and its name in the area's menu. */
export interface AreaPage {
  path: string;
  title: string;
}

/** A section of the dashboard: a top-level menu entry and the pages under it. */
export interface Area {
  id: string;
  title: string;
  pages: readonly AreaPage[];
}

/** The dashboard's map: the menus are drawn from it, and the browser tests walk every page in it. */
export const AREAS: readonly Area[] = [
  { id: 'overview', title: 'Overview', pages: [{ path: '', title: 'Overview' }] },
  {
    id: 'visibility',
    title: 'Visibility',
    pages: [
      { path: 'visibility', title: 'Score' },
      { path: 'visibility/queries', title: 'Queries' },
      { path: 'visibility/competitors', title: 'Competitors' },
      { path: 'visibility/citations', title: 'Citations' },
      { path: 'visibility/sources', title: 'Sources' },
      { path: 'visibility/sentiment', title: 'Sentiment' },
      { path: 'visibility/rankings', title: 'Rankings' },
      { path: 'visibility/crawlers', title: 'Crawler access' },
    ],
  },
  {
    id: 'content',
    title: 'Content',
    pages: [
      { path: 'content', title: 'Calendar' },
      { path: 'content/ideas', title: 'Ideas' },
      { path: 'content/titles', title: 'Planned titles' },
      { path: 'content/policy', title: 'Article policy' },
    ],
  },
  {
    id: 'brand',
    title: 'Brand',
    pages: [
      { path: 'brand', title: 'Profile' },
      { path: 'brand/identity', title: 'Identity' },
      { path: 'brand/icps', title: 'ICPs' },
      { path: 'brand/products', title: 'Products' },
      { path: 'brand/guidelines', title: 'Guidelines' },
    ],
  },
  {
    id: 'publishing',
    title: 'Publishing',
    pages: [
      { path: 'publishing', title: 'Destinations' },
      { path: 'publishing/deliveries', title: 'Delivery log' },
    ],
  },
  {
    id: 'growth',
    title: 'Growth',
    pages: [
      { path: 'growth', title: 'Backlinks' },
      { path: 'growth/outreach', title: 'Outreach' },
      { path: 'growth/network', title: 'Link network' },
      { path: 'growth/social', title: 'Social threads' },
      { path: 'growth/repurpose', title: 'Repurpose' },
    ],
  },
  {
    id: 'analytics',
    title: 'Analytics',
    pages: [
      { path: 'analytics', title: 'Traffic' },
      { path: 'analytics/engagement', title: 'Engagement' },
      { path: 'analytics/sources', title: 'Sources' },
      { path: 'analytics/reports', title: 'Reports' },
      { path: 'analytics/leads', title: 'Leads' },
    ],
  },
  {
    id: 'workspace',
    title: 'Workspace',
    pages: [
      { path: 'settings', title: 'Settings' },
      { path: 'team', title: 'Team' },
      { path: 'keys', title: 'API keys' },
      { path: 'apps', title: 'Connected AI apps' },
      { path: 'approvals', title: 'Approvals' },
      { path: 'billing', title: 'Billing' },
      { path: 'support', title: 'Support' },
      { path: 'export', title: 'Data export' },
    ],
  },
];

export function areaOf(id: string): Area {
  const area = AREAS.find((candidate) => candidate.id === id);
  if (area === undefined) throw new Error(`no dashboard area ${id}`);
  return area;
}

export function pageUrl(workspaceId: string, path: string): string {
  return path === '' ? `/w/${workspaceId}` : `/w/${workspaceId}/${path}`;
}
