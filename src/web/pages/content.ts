import express, { type Request, type RequestHandler, type Response } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { articlePage } from './content/article.js';
import { calendarPage } from './content/calendar.js';
import { ideasPage, titlesPage } from './content/planning.js';
import { policyPage } from './content/policy.js';

/** The Content area of the dashboard (see AREAS in ../areas.ts), plus a page per article linked from the calendar. */
export function contentPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.get('/w/:ws/content', ...stack, (req: Request, res: Response) => calendarPage(deps, req, res));
  router.get('/w/:ws/content/ideas', ...stack, (_req: Request, res: Response) => ideasPage(deps, res));
  router.get('/w/:ws/content/titles', ...stack, (req: Request, res: Response) => titlesPage(deps, req, res));
  router.post('/w/:ws/content/titles', ...stack, (req: Request, res: Response) => titlesPage(deps, req, res));
  router.get('/w/:ws/content/policy', ...stack, (_req: Request, res: Response) => policyPage(deps, res));
  router.get('/w/:ws/content/articles/:contentId', ...stack, (req: Request, res: Response) => articlePage(deps, req, res));
  return router;
}
