import { approvalTools } from './approvals/index.js';
import { authOperations } from './auth/index.js';
import { billingTools } from './billing/index.js';
import { brandTools } from './brand/index.js';
import { buildRegistry } from './registry.js';
import { supportTools } from './support/index.js';
import { teamTools } from './team/index.js';

/** Every operation, grouped by domain; the group name is the MCP toolset and the OpenAPI tag. */
export const registry = buildRegistry({
  brand: brandTools,
  team: teamTools,
  billing: billingTools,
  support: supportTools,
  approvals: approvalTools,
  auth: authOperations,
});
