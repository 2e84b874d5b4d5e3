import type { Request, RequestHandler, Response, Router } from 'express';
import type { MenuArea } from './layout.js';
import type { DashboardDeps } from './pageContext.js';

/** The dashboard's sections, in the order of the menu. */
export const AREA_TITLES = {
  overview: 'Overview',
  visibility: 'Visibility',
  content: 'Content',
  brand: 'Brand',
  publishing: 'Publishing',
  growth: 'Growth',
  analytics: 'Analytics',
  workspace: 'Workspace',
} as const;

export type AreaId = keyof typeof AREA_TITLES;

/** The middleware a route runs behind. */
export interface PageStacks {
  /** Signed in, and a member of the workspace named by `:ws` (`res.locals.current`). */
  inWorkspace: RequestHandler[];
  /** Signed in, with no workspace checked: links handed out without one (an approval's URL). */
  signedIn: RequestHandler[];
}

/**
 * One page of the dashboard's menus: which area lists it, under what title, and the routes it answers. The map of
 * areas (./areas.ts) is built from these, so a new page is its module and one line in that list.
 */
export interface DashboardPage {
  area: AreaId;
  /** The page's path under /w/:ws/ ('' is the workspace's overview). */
  path: string;
  title: string;
  /** Answers GET /w/:ws/<path> behind the workspace stack; a page without it answers that route in `routes`. */
  show?: (deps: DashboardDeps, req: Request, res: Response) => Promise<void>;
  /** The page's other routes: where its own forms post, and the pages under it that are in no menu. */
  routes?: (router: Router, deps: DashboardDeps, stacks: PageStacks) => void;
}

/** An area of the map: its menu entry and its pages. */
export interface Area extends MenuArea {
  id: AreaId;
  pages: readonly DashboardPage[];
}
