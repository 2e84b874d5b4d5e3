import type { Response } from 'express';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { Registry } from '../../tools/registry.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import type { Membership, SignedInUser } from '../accounts/sessions.js';
import type { LimiterStore } from '../limits/store.js';
import type { OAuthIssuer } from '../oauth/issuer.js';
import type { SafeFetcher } from '../outbound/safeFetch.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Timing } from '../outsideServices.js';
import type { SafeHtml } from './html.js';
import { page, type MenuArea, type PageContext } from './layout.js';

/*
 * What every dashboard page shares: the service's dependencies, the visit (the signed-in user and, under /w/:ws, the
 * checked membership) and the way a page is sent. Pages import this module, and only the map (areas.ts) imports the
 * pages, so the dashboard's modules form no import circle.
 */

export interface DashboardDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  pipeline: Pipeline;
  issuer: OAuthIssuer;
  limiterStore: LimiterStore;
  credentials: CredentialSealer;
  outbound: SafeFetcher;
  /** The outside calls' time limits (a page that reads a CMS through a destination kind's client uses the kind's). */
  timing: Timing;
  registry: Registry;
  logger: Logger;
}

/** What every page handler gets once the session and, under /w/:ws, the membership are checked. */
export interface Visit {
  user: SignedInUser;
  workspaces: Membership[];
  csrf: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    visit?: Visit;
    /** The workspace of a page under /w/:ws, once the visitor's membership in it is checked. */
    current?: Membership;
    /** The dashboard's map, for the menus of whatever page this request ends with. */
    areas?: readonly MenuArea[];
  }
}

export function sendPage(res: Response, status: number, title: string, context: PageContext, body: SafeHtml): void {
  res.status(status).type('html').send(page(title, { areas: res.locals.areas, ...context }, body));
}
