import express, { type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/clock.js';
import { recordCrawlerVisit, workspaceForServiceKey } from '../src/crawlers/visits.js';
import { describeIssues } from '../src/shared/issues.js';
import type { Limiter, LimiterStore } from '../src/limits/store.js';
import { clientAddress } from '../src/web/security.js';

export const CRAWL_REPORT_PATH = '/api/site/crawl';
const BODY_LIMIT = '8kb';
/** Reports a minute per workspace: a busy crawl is bursty, but a loop in the site's code should not fill the table. */
export const REPORTS_PER_WORKSPACE_PER_MINUTE = 600;
/** Calls a minute per client address without a valid key. */
export const REFUSALS_PER_ADDRESS_PER_MINUTE = 30;

const report = z.strictObject({
  user_agent: z.string().min(1).max(1000),
  path: z.string().max(2048).refine((path) => path.startsWith('/'), 'must start with /'),
  test: z.boolean().optional(),
});

/**
 * A CMS plugin names itself and its version in x-sightline-plugin (`wordpress/1.4.2`); its reports are the `cms_plugin`
 * crawler source. Undefined without the header (the site's own serving code), null when it is malformed.
 */
function pluginVersion(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  return /^[a-z0-9][a-z0-9-]{0,39}\/\d{1,4}(\.\d{1,4}){0,3}([-+][0-9A-Za-z.-]{1,40})?$/.test(header.trim()) ? header.trim() : null;
}

async function within(limiter: Limiter, key: string, res: Response): Promise<boolean> {
  const state = await limiter.consume(key);
  if (state.allowed) return true;
  const retryAfterMs = Math.max(1, state.resetMs);
  res.setHeader('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
  res.status(429).json({ error: `rate limited: retry in ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs });
  return false;
}

/**
 * POST /api/site/crawl: the customer's site reports a crawler's request. x-service-key (a destination's signing
 * secret) names the workspace, x-sightline-plugin the CMS plugin when it is the one reporting; { ok: true, test: true } for a test call, else one stored visit and
 * { ok: true, crawler, category, articleId }. Errors are JSON { error }.
 */
export function crawlReportRouter({ db, clock, limiterStore }: { db: Kysely<Database>; clock: Clock; limiterStore: LimiterStore }): express.Router {
  const perWorkspace = limiterStore.limiter({ prefix: 'crawl-workspace', points: REPORTS_PER_WORKSPACE_PER_MINUTE, durationSeconds: 60 });
  const refusals = limiterStore.limiter({ prefix: 'crawl-refused', points: REFUSALS_PER_ADDRESS_PER_MINUTE, durationSeconds: 60 });
  const router = express.Router();

  router.post(CRAWL_REPORT_PATH, express.json({ limit: BODY_LIMIT }), async (req: Request, res: Response) => {
    const address = clientAddress(req);
    const key = req.get('x-service-key');
    const workspaceId = key ? await workspaceForServiceKey(db, key) : null;
    if (workspaceId === null) {
      if (!(await within(refusals, address, res))) return;
      res.status(401).json({ error: 'x-service-key: missing or not the signing secret of a destination' });
      return;
    }
    if (!(await within(perWorkspace, workspaceId, res))) return;
    const parsed = report.safeParse(req.body ?? {}, { reportInput: true });
    if (!parsed.success) {
      res.status(400).json({ error: describeIssues(parsed.error.issues) });
      return;
    }
    if (parsed.data.test === true) {
      res.json({ ok: true, test: true });
      return;
    }
    const plugin = pluginVersion(req.get('x-sightline-plugin'));
    if (plugin === null) {
      res.status(400).json({ error: 'x-sightline-plugin: must be the plugin name and version, as wordpress/1.4.2' });
      return;
    }
    const visit = await recordCrawlerVisit(db, clock, workspaceId, { userAgent: parsed.data.user_agent, path: parsed.data.path, plugin });
    res.json({ ok: true, crawler: visit.crawler, category: visit.category, articleId: visit.articleId });
  });

  router.use(CRAWL_REPORT_PATH, (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') res.status(413).json({ error: `body: larger than the ${BODY_LIMIT} limit` });
    else if (type === 'entity.parse.failed') res.status(400).json({ error: 'body: is not valid JSON' });
    else next(error);
  });
  return router;
}
