import { approvalTools } from './approvals/index.js';
import { authOperations } from './auth/index.js';
import { billingTools } from './billing/index.js';
import { analyticsTools } from './analytics/index.js';
import { brandTools } from './brand/index.js';
import { contentTools } from './content/index.js';
import { jobsTools } from './jobs/index.js';
import { linksTools } from './links/index.js';
import { publishingTools } from './publishing/index.js';
import { queriesTools } from './queries/index.js';
import { buildRegistry } from './registry.js';
import { supportTools } from './support/index.js';
import { teamTools } from './team/index.js';
import { visibilityTools } from './visibility/index.js';

/** Every operation, grouped by domain; the group name is the MCP toolset and the OpenAPI tag. */
export const registry = buildRegistry({
  brand: brandTools,
  queries: queriesTools,
  content: contentTools,
  links: linksTools,
  publishing: publishingTools,
  jobs: jobsTools,
  visibility: visibilityTools,
  analytics: analyticsTools,
  team: teamTools,
  billing: billingTools,
  support: supportTools,
  approvals: approvalTools,
  auth: authOperations,
});
