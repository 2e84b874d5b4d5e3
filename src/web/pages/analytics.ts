import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { engagementPage } from './analytics/engagement.js';
import { leadsPage } from './analytics/leads.js';
import { reportsPage } from './analytics/reports.js';
import { sourcesPage } from './analytics/sources.js';
import { trafficPage } from './analytics/traffic.js';

/** The Analytics area of the dashboard (see AREAS in ../areas.ts). */
export function analyticsPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.get('/w/:ws/analytics', ...stack, (req, res) => trafficPage(deps, req, res));
  router.get('/w/:ws/analytics/engagement', ...stack, (_req, res) => engagementPage(deps, res));
  router.get('/w/:ws/analytics/sources', ...stack, (_req, res) => sourcesPage(deps, res));
  router.get('/w/:ws/analytics/reports', ...stack, (req, res) => reportsPage(deps, req, res));
  router.get('/w/:ws/analytics/leads', ...stack, (req, res) => leadsPage(deps, req, res));
  return router;
}
