import express, { type NextFunction, type Request, type Response } from 'express';
import { checkCredentials, endSession, memberships, sessionUser, startSession, SESSION_TTL_MS, type SignedInUser } from '../accounts/sessions.js';
import { acceptInvite, openInvite, type InviteAcceptor, type OpenInvite } from '../team/invites.js';
import { ServiceError } from '../errors.js';
import { cdnPages } from './connections/cloudflare.js';
import { consentPages } from './consentPages.js';
import { devicePages } from './devicePages.js';
import { html } from './html.js';
import { outreachMailboxPages } from './connections/mailbox.js';
import { referencePages } from './referencePages.js';
import { schedulerPages } from './connections/schedulers.js';
import { csrfField, FAVICON, STYLESHEET, type PageContext } from './layout.js';
import { operationActions } from './kit.js';
import { sendPage, type DashboardDeps } from './pageContext.js';
import { AREAS, dashboardPageRoutes } from './areas.js';
import { clientAddress, csrfToken, csrfValid, formRefusal, FORM_LIMIT, pageHeaders, readCookie, sentFromOwnPages, SESSION_COOKIE, setCookie } from './security.js';
import { googleAnalyticsPages } from './connections/google/analytics.js';
import { searchConsolePages } from './connections/google/searchConsole.js';
import { siteAnalyticsPages } from './connections/siteAnalytics.js';
import { siteBuilderPages } from './connections/webflow.js';
import { unsubscribePages } from './unsubscribe.js';

// Per account and per address, so that neither one guessed password list nor one busy address gets far.
const SIGN_IN_WINDOW_SECONDS = 15 * 60;
const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;
const SIGN_IN_ATTEMPTS_PER_ADDRESS = 50;

function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/(?!\/)[^\\]*$/.test(value) ? value : '/';
}

/** Paths the dashboard owns: a miss or a failure under them is an HTML page, not the API's JSON. */
const DASHBOARD_PATHS = ['/w', '/approvals', '/invite', '/signin', '/signout', '/device', '/oauth/authorize', '/assets', '/docs', '/unsubscribe'];

export function dashboardRouter(deps: DashboardDeps): express.Router {
  const { db, clock, config } = deps;
  const secure = config.publicUrl.startsWith('https://');
  const perAccount = deps.limiterStore.limiter({ prefix: 'signin-account', points: SIGN_IN_ATTEMPTS_PER_ACCOUNT, durationSeconds: SIGN_IN_WINDOW_SECONDS });
  const perAddress = deps.limiterStore.limiter({ prefix: 'signin-address', points: SIGN_IN_ATTEMPTS_PER_ADDRESS, durationSeconds: SIGN_IN_WINDOW_SECONDS });
  const router = express.Router();
  router.use((_req, res, next) => {
    res.locals.areas = AREAS;
    next();
  });

  router.get('/assets/app.css', (_req, res) => {
    res.type('css').setHeader('Cache-Control', 'public, max-age=3600').send(STYLESHEET);
  });
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400').send(FAVICON);
  });
  const publicOrigin = new URL(config.publicUrl).origin;
  /** The signed-in visit, or before sign-in what an anonymous page needs (its CSRF token). */
  const pageContext = (req: Request, res: Response): PageContext => res.locals.visit ?? { csrf: csrfToken(req, res, secure) };

  const loadVisit = async (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, SESSION_COOKIE);
    const user = token === undefined ? undefined : await sessionUser(db, clock, token, config.sessionIdleTimeoutMs);
    if (user !== undefined) {
      res.locals.sessionToken = token;
      res.locals.visit = { user, workspaces: await memberships(db, user.userId), csrf: csrfToken(req, res, secure) };
    }
    next();
  };
  // A form larger than any page sends, or one that cannot be read, is the sender's mistake: a page saying so, not a 500.
  const formParser = express.urlencoded({ extended: false, limit: FORM_LIMIT });
  const readForm = (req: Request, res: Response, next: NextFunction) => {
    formParser(req, res, (error?: unknown) => {
      if (error === undefined) {
        next();
        return;
      }
      const refusal = formRefusal(error);
      if (refusal === undefined) {
        next(error);
        return;
      }
      deps.logger.warn({ path: req.path, status: refusal.status }, 'dashboard form refused');
      sendPage(res, refusal.status, refusal.title, pageContext(req, res), html`<p class="notice error" role="alert">${refusal.message}</p>`);
    });
  };
  // Every form carries the CSRF token, and browsers say where a form came from: a POST from another site, or without
  // the token of this session, changes nothing.
  const checkCsrf = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') {
      next();
      return;
    }
    if (!sentFromOwnPages(req, publicOrigin)) {
      sendPage(res, 403, 'Form refused', pageContext(req, res), html`<p class="notice error" role="alert">This form was sent from another site, so nothing was changed.</p>`);
      return;
    }
    if (!csrfValid(req, res)) {
      sendPage(res, 403, 'Form expired', pageContext(req, res), html`<p class="notice error" role="alert">This form was not sent from this site or has expired. Go back, reload the page and try again.</p>`);
      return;
    }
    next();
  };
  const requireUser = (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.visit === undefined) {
      res.redirect(303, `/signin?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    next();
  };
  // Page routes only: the API and /mcp never see cookies, forms or these headers. The session is read first, since
  // the CSRF token is bound to it.
  const pageStack = [pageHeaders, loadVisit, readForm, checkCsrf];
  const signedIn = [...pageStack, requireUser];

  const signInForm = (req: Request, res: Response, status: number, problem?: string) => {
    const next = safeNext(req.query.next ?? (req.body as Record<string, unknown> | undefined)?.next);
    const csrf = csrfToken(req, res, secure);
    sendPage(
      res,
      status,
      'Sign in',
      { csrf },
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<form method="post" action="/signin">
  ${csrfField(csrf)}
  <input type="hidden" name="next" value="${next}">
  <label>Email <input type="email" name="email" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
<p>The <a href="/docs">API reference</a> describes every operation, no account needed.</p>`,
    );
  };

  /**
   * Counts one password attempt against the account and the address; the refusal when either is spent. Sign-in and
   * an invite's acceptance share these counters, so a link cannot be used to guess passwords past the sign-in limit.
   */
  async function passwordAttemptRefused(req: Request, email: string): Promise<{ status: number; problem: string } | undefined> {
    let attempts;
    try {
      attempts = await Promise.all([perAccount.consume(email), perAddress.consume(clientAddress(req))]);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { status: error.status, problem: 'Sign-in is unavailable for a moment. Try again shortly.' };
    }
    if (attempts.some((attempt) => !attempt.allowed)) return { status: 429, problem: 'Too many sign-in attempts. Wait a few minutes and try again.' };
    return undefined;
  }

  /** The account these credentials open, after counting the attempt; the same refusal for an unknown email and a wrong password. */
  async function signIn(req: Request, email: string, password: string): Promise<{ ok: true; user: SignedInUser } | { ok: false; status: number; problem: string }> {
    const refused = await passwordAttemptRefused(req, email);
    if (refused !== undefined) return { ok: false, ...refused };
    const user = email === '' || password === '' ? undefined : await checkCredentials(db, email, password);
    if (user === undefined) return { ok: false, status: 401, problem: 'That email and password do not match an account.' };
    await perAccount.reset(email);
    return { ok: true, user };
  }

  async function beginSession(res: Response, userId: string): Promise<void> {
    const token = await startSession(db, clock, userId);
    setCookie(res, SESSION_COOKIE, token, { secure, sameSite: 'lax', maxAgeSeconds: SESSION_TTL_MS / 1000 });
  }

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
    const outcome = await signIn(req, email, password);
    if (!outcome.ok) {
      signInForm(req, res, outcome.status, outcome.problem);
      return;
    }
    await beginSession(res, outcome.user.userId);
    res.redirect(303, safeNext(body.next));
  });

  router.post('/signout', ...pageStack, async (req: Request, res: Response) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (token !== undefined) await endSession(db, token);
    setCookie(res, SESSION_COOKIE, '', { secure, sameSite: 'lax', maxAgeSeconds: 0 });
    const next = safeNext((req.body as Record<string, unknown>).next);
    res.redirect(303, next === '/' ? '/signin' : next);
  });

  router.get('/invite/:token', ...pageStack, (req: Request, res: Response) => invitePage(req, res));
  router.post('/invite/:token', ...pageStack, (req: Request, res: Response) => invitePage(req, res));

  /**
   * One page for every invitee, whether or not the email has an account: signed in as the invited email, a button
   * accepts; signed out, a password either signs in to the existing account (counted as a sign-in) or makes the new
   * one. An account made here is unverified: the link was copied by the inviter, so it proves nothing about who
   * holds the email (see the operator's create-user).
   */
  async function invitePage(req: Request, res: Response): Promise<void> {
    const token = String(req.params.token);
    const invite = await openInvite(db, clock, token);
    const visit = res.locals.visit;
    const context = pageContext(req, res);
    if (invite === undefined) {
      sendPage(res, 404, 'Invite not valid', context, html`<p>This invite link is unknown, was already used, was revoked or has expired. Ask the workspace owner for a new one.</p>`);
      return;
    }
    const title = `Join ${invite.workspaceName}`;
    const intro = html`<p>You were invited to join <strong>${invite.workspaceName}</strong> as ${invite.role} with the email <strong>${invite.email}</strong>.</p>`;
    if (visit !== undefined && visit.user.email !== invite.email) {
      sendPage(
        res,
        req.method === 'POST' ? 403 : 200,
        title,
        context,
        html`${intro}
<p>You are signed in as <strong>${visit.user.email}</strong>, and this invite is for another email. Sign out, then open the link again.</p>
<form method="post" action="/signout">${csrfField(context.csrf)}<input type="hidden" name="next" value="/invite/${token}"><button type="submit">Sign out</button></form>`,
      );
      return;
    }
    let problem: { status: number; text: string } | undefined;
    if (req.method === 'POST') {
      const outcome = await acceptAs(req, invite, visit?.user);
      if (outcome.ok) {
        if (visit === undefined) await beginSession(res, outcome.userId);
        res.redirect(303, `/w/${invite.workspaceId}`);
        return;
      }
      problem = { status: outcome.status, text: outcome.problem };
    }
    sendPage(
      res,
      problem?.status ?? 200,
      title,
      context,
      html`${intro}
${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem.text}</p>`}
<form method="post">
  ${csrfField(context.csrf)}
  ${
    visit === undefined
      ? html`<label>Password <span class="muted">(the one of your Sightline account for this email if you have one; otherwise choose one of at least 10 characters)</span>
    <input type="password" name="password" autocomplete="current-password" required></label>`
      : ''
  }
  <button type="submit">Accept and join</button>
</form>`,
    );
  }

  /** Accepts for the signed-in invitee, or for whoever gave the password of the email's account, or makes that account. */
  async function acceptAs(req: Request, invite: OpenInvite, signedIn: SignedInUser | undefined): Promise<{ ok: true; userId: string } | { ok: false; status: number; problem: string }> {
    const accept = (as: InviteAcceptor) => db.transaction().execute((trx) => acceptInvite(trx, clock, invite, as));
    try {
      if (signedIn !== undefined) return { ok: true, userId: await accept({ userId: signedIn.userId }) };
      const password = (req.body as Record<string, unknown>).password;
      if (typeof password !== 'string' || password === '') return { ok: false, status: 400, problem: 'Enter a password.' };
      if (!invite.existingAccount) {
        const refused = await passwordAttemptRefused(req, invite.email);
        if (refused !== undefined) return { ok: false, ...refused };
        return { ok: true, userId: await accept({ newPassword: password }) };
      }
      const outcome = await signIn(req, invite.email, password);
      return outcome.ok ? { ok: true, userId: await accept({ userId: outcome.user.userId }) } : outcome;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { ok: false, status: error.status, problem: error.message };
    }
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
  router.use(dashboardPageRoutes(deps, { inWorkspace: inWorkspaceStack, signedIn }));
  router.use(searchConsolePages(deps, signedIn));
  router.use(siteAnalyticsPages(deps, signedIn));
  router.use(googleAnalyticsPages(deps, signedIn));
  router.use(cdnPages(deps, pageStack, signedIn));
  router.use(siteBuilderPages(deps, signedIn));
  router.use(outreachMailboxPages(deps, signedIn));
  router.use(schedulerPages(deps, signedIn));
  router.use(consentPages(deps, signedIn));
  router.use(devicePages(deps, signedIn));
  router.use(referencePages(deps, pageStack, pageContext));
  // Public, outside the page stack: mail clients post without cookies or a CSRF token (RFC 8058).
  router.use(unsubscribePages(deps));
  // The dashboard's own paths answer in HTML when nothing matched or something failed; the API keeps its JSON.
  router.use(DASHBOARD_PATHS, ...pageStack, (req: Request, res: Response) => {
    sendPage(res, 404, 'Page not found', pageContext(req, res), html`<p>There is no page at this address. <a href="/">Go to your workspaces</a>.</p>`);
  });
  router.use(DASHBOARD_PATHS, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = error instanceof ServiceError && error.status !== 500;
    if (!known) deps.logger.error({ err: error, path: req.path }, 'dashboard page failed');
    const context = { ...pageContext(req, res), current: res.locals.current };
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
