import express, { type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { checkCredentials, endSession, memberships, sessionUser, startSession, SESSION_TTL_MS, type Membership, type SignedInUser } from '../domain/accounts/sessions.js';
import { acceptInvite, openInvite } from '../domain/team/invites.js';
import { ServiceError } from '../errors.js';
import type { LimiterStore } from '../limits/store.js';
import type { CredentialSealer } from '../credentials/sealed.js';
import type { SafeFetcher } from '../outbound/safeFetch.js';
import type { OAuthIssuer } from '../oauth/issuer.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Registry } from '../../tools/registry.js';
import { cdnPages } from './cdnPages.js';
import { consentPages } from './consentPages.js';
import { devicePages } from './devicePages.js';
import { html, type SafeHtml } from './html.js';
import { outreachMailboxPages } from './outreachMailboxPages.js';
import { schedulerPages } from './schedulerPages.js';
import { csrfField, FAVICON, page, STYLESHEET, type PageContext } from './layout.js';
import { operationActions } from './kit.js';
import { overviewPages } from './pages/overview.js';
import { visibilityPages } from './pages/visibility.js';
import { contentPages } from './pages/content.js';
import { brandPages } from './pages/brand.js';
import { publishingPages } from './pages/publishing.js';
import { growthPages } from './pages/growth.js';
import { analyticsPages } from './pages/analytics.js';
import { clientAddress, csrfToken, csrfValid, pageHeaders, readCookie, SESSION_COOKIE, setCookie } from './security.js';
import { searchConsolePages } from './searchConsolePages.js';
import { siteAnalyticsPages } from './siteAnalyticsPages.js';
import { siteBuilderPages } from './siteBuilderPages.js';
import { workspacePages } from './workspacePages.js';

export interface DashboardDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  pipeline: Pipeline;
  issuer: OAuthIssuer;
  limiterStore: LimiterStore;
  credentials: CredentialSealer;
  outbound: SafeFetcher;
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
  }
}

// Per account and per address, so that neither one guessed password list nor one busy address gets far.
const SIGN_IN_WINDOW_SECONDS = 15 * 60;
const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
const SIGN_IN_ATTEMPTS_PER_ADDRESS = 50;

function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/(?!\/)[^\\]*$/.test(value) ? value : '/';
}

/** Paths the dashboard owns: a miss or a failure under them is an HTML page, not the API's JSON. */
const DASHBOARD_PATHS = ['/w', '/approvals', '/invite', '/signin', '/device', '/assets'];

export function sendPage(res: Response, status: number, title: string, context: PageContext, body: SafeHtml): void {
  res.status(status).type('html').send(page(title, context, body));
}

export function dashboardRouter(deps: DashboardDeps): express.Router {
  const { db, clock, config } = deps;
  const secure = config.publicUrl.startsWith('https://');
  const perAccount = deps.limiterStore.limiter({ prefix: 'signin-account', points: SIGN_IN_ATTEMPTS_PER_ACCOUNT, durationSeconds: SIGN_IN_WINDOW_SECONDS });
  const perAddress = deps.limiterStore.limiter({ prefix: 'signin-address', points: SIGN_IN_ATTEMPTS_PER_ADDRESS, durationSeconds: SIGN_IN_WINDOW_SECONDS });
  const router = express.Router();

  router.get('/assets/app.css', (_req, res) => {
    res.type('css').setHeader('Cache-Control', 'public, max-age=3600').send(STYLESHEET);
  });
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON);
  });
  // Every form carries the CSRF token; a POST without the matching one changes nothing.
  const checkCsrf = (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'POST' && !csrfValid(req)) {
      sendPage(res, 403, 'Form expired', { csrf: csrfToken(req, res, secure) }, html`<p class="notice error">This form was not sent from this site or has expired. Go back, reload the page and try again.</p>`);
      return;
    }
    next();
  };
  const loadVisit = async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, SESSION_COOKIE);
    const user = token === undefined ? undefined : await sessionUser(db, clock, token);
    if (user !== undefined) res.locals.visit = { user, workspaces: await memberships(db, user.userId), csrf: csrfToken(req, res, secure) };
    next();
  };
  const requireUser = (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.visit === undefined) {
      res.redirect(303, `/signin?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    next();
  };
  // Page routes only: the API and /mcp never see cookies, forms or these headers.
  const pageStack = [pageHeaders, express.urlencoded({ extended: false, limit: '32kb' }), checkCsrf, loadVisit];
  const signedIn = [...pageStack, requireUser];

  const signInForm = (req: Request, res: Response, status: number, problem?: string) => {
    const next = safeNext(req.query.next ?? (req.body as Record<string, unknown> | undefined)?.next);
    sendPage(
      res,
      status,
      'Sign in',
      { csrf: csrfToken(req, res, secure) },
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<form method="post" action="/signin">
  ${csrfField(csrfToken(req, res, secure))}
  <input type="hidden" name="next" value="${next}">
  <label>Email <input type="email" name="email" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
    );
  };

  router.get('/signin', ...pageStack, (req: Request, res: Response) => {
    if (res.locals.visit !== undefined) {
      res.redirect(303, safeNext(req.query.next));
      return;
    }
    signInForm(req, res, 200);
  });

  router.post('/signin', ...pageStack, async (req: Request, res: Response) => {
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    let attempts;
    try {
      attempts = await Promise.all([perAccount.consume(email), perAddress.consume(clientAddress(req))]);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      signInForm(req, res, error.status, 'Sign-in is unavailable for a moment. Try again shortly.');
      return;
    }
    if (attempts.some((attempt) => !attempt.allowed)) {
      signInForm(req, res, 429, 'Too many sign-in attempts. Wait a few minutes and try again.');
      return;
    }
    const user = email === '' || password === '' ? undefined : await checkCredentials(db, email, password);
    if (user === undefined) {
      signInForm(req, res, 401, 'That email and password do not match an account.');
      return;
    }
    await perAccount.reset(email);
    const token = await startSession(db, clock, user.userId);
    setCookie(res, SESSION_COOKIE, token, { secure, sameSite: 'lax', maxAgeSeconds: SESSION_TTL_MS / 1000 });
    res.redirect(303, safeNext(body.next));
  });

  router.post('/signout', ...pageStack, async (req: Request, res: Response) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (token !== undefined) await endSession(db, token);
    setCookie(res, SESSION_COOKIE, '', { secure, sameSite: 'lax', maxAgeSeconds: 0 });
    res.redirect(303, '/signin');
  });

  router.get('/invite/:token', ...pageStack, (req: Request, res: Response) => invitePage(req, res));
  router.post('/invite/:token', ...pageStack, (req: Request, res: Response) => invitePage(req, res));

  async function invitePage(req: Request, res: Response): Promise<void> {
    const invite = await openInvite(db, clock, String(req.params.token));
    const context = { csrf: csrfToken(req, res, secure) };
    if (invite === undefined) {
      sendPage(res, 404, 'Invite not valid', context, html`<p>This invite link is unknown, was already used, was revoked or has expired. Ask the workspace owner for a new one.</p>`);
      return;
    }
    let problem: string | undefined;
    if (req.method === 'POST') {
      const password = (req.body as Record<string, unknown>).password;
      try {
        const userId = typeof password === 'string' ? await db.transaction().execute((trx) => acceptInvite(trx, clock, invite, password)) : undefined;
        if (userId !== undefined) {
          const token = await startSession(db, clock, userId);
          setCookie(res, SESSION_COOKIE, token, { secure, sameSite: 'lax', maxAgeSeconds: SESSION_TTL_MS / 1000 });
          res.redirect(303, `/w/${invite.workspaceId}`);
          return;
        }
        problem = 'That password does not match your account.';
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        problem = error.message;
      }
    }
    sendPage(
      res,
      problem === undefined ? 200 : 400,
      `Join ${invite.workspaceName}`,
      context,
      html`<p>You were invited to join <strong>${invite.workspaceName}</strong> as ${invite.role} with the email <strong>${invite.email}</strong>.</p>
${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<form method="post">
  ${csrfField(context.csrf)}
  <label>${invite.existingAccount ? 'Your password' : 'Choose a password (at least 10 characters)'}
    <input type="password" name="password" autocomplete="${invite.existingAccount ? 'current-password' : 'new-password'}" required></label>
  <button type="submit">Accept and join</button>
</form>`,
    );
  }

  router.get('/', ...signedIn, (_req: Request, res: Response) => {
    const visit = res.locals.visit!;
    if (visit.workspaces.length === 1) {
      res.redirect(303, `/w/${visit.workspaces[0]!.workspaceId}`);
      return;
    }
    sendPage(
      res,
      200,
      'Your workspaces',
      visit,
      visit.workspaces.length === 0
        ? html`<p>You are not a member of any workspace yet. Ask an owner for an invite.</p>`
        : html`<ul>${visit.workspaces.map((w) => html`<li><a href="/w/${w.workspaceId}">${w.name}</a> <span class="muted">${w.websiteUrl} · ${w.role}</span></li>`)}</ul>`,
    );
  });

  // Under /w/:ws the workspace must be one of the visitor's: any other, or one that does not exist, is the same 404.
  const inWorkspace = (req: Request, res: Response, next: NextFunction) => {
    const visit = res.locals.visit!;
    const current = visit.workspaces.find((w) => w.workspaceId === req.params.ws);
    if (current === undefined) {
      sendPage(res, 404, 'Not found', visit, html`<p>There is no such workspace among yours.</p>`);
      return;
    }
    res.locals.current = current;
    next();
  };
  const inWorkspaceStack = [...signedIn, inWorkspace];

  router.use(operationActions(deps, inWorkspaceStack));
  router.use(workspacePages(deps, inWorkspaceStack, signedIn));
  router.use(overviewPages(deps, inWorkspaceStack));
  router.use(visibilityPages(deps, inWorkspaceStack));
  router.use(contentPages(deps, inWorkspaceStack));
  router.use(brandPages(deps, inWorkspaceStack));
  router.use(publishingPages(deps, inWorkspaceStack));
  router.use(growthPages(deps, inWorkspaceStack));
  router.use(analyticsPages(deps, inWorkspaceStack));
  router.use(searchConsolePages(deps, signedIn));
  router.use(siteAnalyticsPages(deps, signedIn));
  router.use(cdnPages(deps, pageStack, signedIn));
  router.use(siteBuilderPages(deps, signedIn));
  router.use(outreachMailboxPages(deps, signedIn));
  router.use(schedulerPages(deps, signedIn));
  router.use(consentPages(deps, signedIn));
  router.use(devicePages(deps, signedIn));
  // The dashboard's own paths answer in HTML when nothing matched or something failed; the API keeps its JSON.
  router.use(DASHBOARD_PATHS, ...pageStack, (req: Request, res: Response) => {
    sendPage(res, 404, 'Page not found', res.locals.visit ?? { csrf: csrfToken(req, res, secure) }, html`<p>There is no page at this address. <a href="/">Go to your workspaces</a>.</p>`);
  });
  router.use(DASHBOARD_PATHS, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = error instanceof ServiceError && error.status !== 500;
    if (!known) deps.logger.error({ err: error, path: req.path }, 'dashboard page failed');
    const context = { ...(res.locals.visit ?? { csrf: csrfToken(req, res, secure) }), current: res.locals.current };
    sendPage(
      res,
      known ? error.status : 500,
      known ? (error.status === 404 ? 'Not found' : 'That did not work') : 'Something went wrong',
      context,
      html`<p class="notice error" role="alert">${known ? error.message : 'The page could not be shown. The error was logged; try again in a moment.'}</p><p><a href="${res.locals.current === undefined ? '/' : `/w/${res.locals.current.workspaceId}`}">Back</a></p>`,
    );
  });
  return router;
}
