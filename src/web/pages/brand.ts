import express, { type Request, type RequestHandler, type Response } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { guidelinesPage } from './brand/guidelines.js';
import { icpsPage } from './brand/icps.js';
import { identityPage } from './brand/identity.js';
import { productsPage } from './brand/products.js';
import { profilePage } from './brand/profile.js';

type BrandPage = (deps: DashboardDeps, req: Request, res: Response) => Promise<void>;

const PAGES: Record<string, BrandPage> = {
  brand: profilePage,
  'brand/identity': identityPage,
  'brand/icps': icpsPage,
  'brand/products': productsPage,
  'brand/guidelines': guidelinesPage,
};

/** The Brand area of the dashboard (see AREAS in ../areas.ts): the brand memory, each part on its own page. */
export function brandPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  for (const [path, show] of Object.entries(PAGES)) {
    router.get(`/w/:ws/${path}`, ...stack, (req: Request, res: Response) => show(deps, req, res));
  }
  return router;
}
