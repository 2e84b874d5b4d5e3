import { gzipSync } from 'node:zlib';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isbot } from 'isbot';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { BadBody, bareHost, COLLECT_BODY_LIMIT, countedPath, MAX_ENGAGED_MS, parseCollectBody, readArrival, readLead, type CounterEvent } from '../src/analytics/counter/events.js';
import type { CounterIngest } from '../src/analytics/counter/ingest.js';
import { LOADER_PATH } from '../src/analytics/counter/loaderTag.js';
import { LOADER_SOURCE } from '../src/analytics/counter/loader.js';
import { CounterSites } from '../src/analytics/counter/sites.js';
import { DailySalt, visitorHash } from '../src/analytics/counter/visitors.js';
import type { Clock } from '../src/clock.js';
import type { CounterLimits } from '../src/config.js';
import type { LimiterStore } from '../src/limits/store.js';
import { clientAddress } from '../src/web/security.js';

export const COLLECT_PATH = '/api/site/collect';
const LOADER_GZIP = gzipSync(LOADER_SOURCE, { level: 9 });

export interface CollectDeps {
  db: Kysely<Database>;
  clock: Clock;
  limiterStore: LimiterStore;
  limits: CounterLimits;
  ingest: CounterIngest;
}

/**
 * GET /t.js serves the tracking loader; POST /api/site/collect takes its events. The endpoint answers 204 as soon as an
 * event is checked (bots are dropped with the same 204, so they learn nothing); the event is written with the next
 * batch. Refusals are JSON { error } naming the field and the rule.
 */
export function collectRouter({ db, clock, limiterStore, limits, ingest }: CollectDeps): express.Router {
  const perAddress = limiterStore.limiter({ prefix: 'collect-address', points: limits.perAddressPerMinute, durationSeconds: 60 });
  const perSite = limiterStore.limiter({ prefix: 'collect-site', points: limits.perSitePerMinute, durationSeconds: 60 });
  const sites = new CounterSites(db, clock);
  const salt = new DailySalt(db, clock);
  const router = express.Router();

  router.get(LOADER_PATH, (req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.acceptsEncodings('gzip') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      res.end(LOADER_GZIP);
    } else {
      res.end(LOADER_SOURCE);
    }
  });

  const refuse = (res: Response, status: number, error: string) => res.status(status).json({ error });

  // sendBeacon posts text/plain (a CORS "simple" request, so no preflight): the body is read as text whatever its type.
  router.post(COLLECT_PATH, express.text({ type: () => true, limit: COLLECT_BODY_LIMIT }), async (req: Request, res: Response) => {
    const address = clientAddress(req);
    const limited = await perAddress.consume(address);
    if (!limited.allowed) {
      res.setHeader('Retry-After', String(Math.ceil(Math.max(1, limited.resetMs) / 1000)));
      refuse(res, 429, `rate limited: at most ${limits.perAddressPerMinute} events a minute from one address`);
      return;
    }
    const userAgent = req.get('user-agent') ?? '';
    if (userAgent === '' || isbot(userAgent)) {
      res.status(204).end();
      return;
    }
    let body;
    try {
      body = parseCollectBody(typeof req.body === 'string' ? req.body : '');
    } catch (error) {
      if (error instanceof BadBody) return void refuse(res, 400, error.message);
      throw error;
    }
    const site = await sites.find(body.s);
    if (site === null) return void refuse(res, 404, 's: no site has this id');
    const origin = req.get('origin');
    if (origin === undefined || !URL.canParse(origin) || bareHost(new URL(origin).hostname) !== site.host) {
      return void refuse(res, 403, `origin: only pages of ${site.host} report to this site`);
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    const page = new URL(body.u);
    if (bareHost(page.hostname) !== site.host) return void refuse(res, 400, `u: must be a page of ${site.host}`);
    const siteLimited = await perSite.consume(site.siteId);
    if (!siteLimited.allowed) {
      res.setHeader('Retry-After', String(Math.ceil(Math.max(1, siteLimited.resetMs) / 1000)));
      refuse(res, 429, `rate limited: at most ${limits.perSitePerMinute} events a minute for one site`);
      return;
    }
    const event: CounterEvent = {
      workspaceId: site.workspaceId,
      visitor: visitorHash(await salt.today(), site.siteId, address, userAgent),
      at: clock.now(),
      type: body.t,
      path: countedPath(page),
      url: `${page.origin}${page.pathname}`,
      arrival: readArrival(page, body.t === 'pageview' ? body.r : undefined, site.host),
      engagedMs: body.t === 'engagement' ? Math.min(body.e, MAX_ENGAGED_MS) : 0,
      firstReport: body.t === 'engagement' && body.v === 1,
      lead: body.t === 'lead' ? readLead(body.f, body.i) : null,
    };
    ingest.add(event);
    res.status(204).end();
  });

  router.use(COLLECT_PATH, (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') refuse(res, 413, `body: larger than the ${COLLECT_BODY_LIMIT} limit`);
    else next(error);
  });
  return router;
}
