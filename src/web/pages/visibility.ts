import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { citationsPage } from './visibility/citations.js';
import { competitorsPage } from './visibility/competitors.js';
import { crawlersPage } from './visibility/crawlers.js';
import { queriesPage } from './visibility/queries.js';
import { rankingsPage } from './visibility/rankings.js';
import { sentimentPage, sourcesPage } from './visibility/reports.js';
import { scorePage } from './visibility/score.js';

/** The Visibility area of the dashboard (see AREAS in ../areas.ts). */
export function visibilityPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.get('/w/:ws/visibility', ...stack, (req, res) => scorePage(deps, req, res));
  router.get('/w/:ws/visibility/queries', ...stack, (_req, res) => queriesPage(deps, res));
  router.get('/w/:ws/visibility/competitors', ...stack, (_req, res) => competitorsPage(deps, res));
  router.get('/w/:ws/visibility/citations', ...stack, (req, res) => citationsPage(deps, req, res));
  router.get('/w/:ws/visibility/sources', ...stack, (req, res) => sourcesPage(deps, req, res));
  router.get('/w/:ws/visibility/sentiment', ...stack, (req, res) => sentimentPage(deps, req, res));
  router.get('/w/:ws/visibility/rankings', ...stack, (req, res) => rankingsPage(deps, req, res));
  router.get('/w/:ws/visibility/crawlers', ...stack, (req, res) => crawlersPage(deps, req, res));
  return router;
}
