import express, { type Request, type RequestHandler, type Response } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { deliveriesPage } from './publishing/deliveries.js';
import { destinationsPage } from './publishing/destinations.js';

/** The Publishing area of the dashboard (see AREAS in ../areas.ts): where articles go, and what happened to each delivery. */
export function publishingPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.get('/w/:ws/publishing', ...stack, (req: Request, res: Response) => destinationsPage(deps, req, res));
  router.get('/w/:ws/publishing/deliveries', ...stack, (req: Request, res: Response) => deliveriesPage(deps, req, res));
  return router;
}
