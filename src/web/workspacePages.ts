import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from './pageContext.js';
import { accountPages } from './pages/workspace/account.js';
import { appsPages } from './pages/workspace/apps.js';
import { approvalsPages } from './pages/workspace/approvals.js';
import { keysPages } from './pages/workspace/keys.js';
import { settingsPages } from './pages/workspace/settings.js';
import { teamPages } from './pages/workspace/team.js';


/** The Workspace area of the dashboard (see AREAS in ./areas.ts): one router per page group under ./pages/workspace/. */
export function workspacePages(deps: DashboardDeps, stack: RequestHandler[], signedIn: RequestHandler[]): express.Router {
  const router = express.Router();
  router.use(settingsPages(deps, stack));
  router.use(teamPages(deps, stack));
  router.use(keysPages(deps, stack));
  router.use(appsPages(deps, stack));
  router.use(approvalsPages(deps, stack, signedIn));
  router.use(accountPages(deps, stack));
  return router;
}
