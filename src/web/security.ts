import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import { randomToken } from '../secrets.js';

export const SESSION_COOKIE = 'sl_session';
/** The random value anonymous pages key their CSRF token by (see csrfToken). */
const PRESESSION_COOKIE = 'sl_csrf';
export const CSRF_FIELD = '_csrf';

/** Pages load nothing from elsewhere, run no script, and cannot be framed. */
export function pageHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
  next();
}

/**
 * Lets this page's forms end in a redirect to `origin`: browsers hold a form's whole redirect chain to form-action, so
 * a form that starts an OAuth flow at another site needs that site listed.
 */
export function allowFormRedirect(res: Response, origin: string): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string') return;
  // Several sections may each add their site (Search Console and Google Analytics both go to Google).
  const allowed = /form-action ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
  if (!allowed.includes(origin)) res.setHeader('Content-Security-Policy', policy.replace(/form-action ([^;]*)/, `form-action $1 ${origin}`));
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  return header === undefined ? undefined : parseCookie(header)[name];
}

export function setCookie(res: Response, name: string, value: string, options: { secure: boolean; maxAgeSeconds?: number; sameSite: 'lax' | 'strict' }): void {
  res.append(
    'Set-Cookie',
    stringifySetCookie({
      name,
      value,
      httpOnly: true,
      secure: options.secure,
      sameSite: options.sameSite,
      path: '/',
      ...(options.maxAgeSeconds === undefined ? {} : { maxAge: options.maxAgeSeconds }),
    }),
  );
}

/**
 * CSRF tokens are bound to what the server alone and this browser alone know: a signed-in page's token is an HMAC keyed
 * by its session token (an HttpOnly cookie the page's script, or a planted cookie, cannot supply), so a token from
 * another session or a cookie someone planted from a sibling subdomain matches nothing. Pages before sign-in (the
 * sign-in form, an invite) key theirs by a random pre-session cookie; there the Origin check below is what holds.
 */
function tokenKeyedBy(secret: string): string {
  return createHmac('sha256', secret).update('sightline dashboard form').digest('base64url');
}

/** The secret this visit's token is keyed by: the session's when signed in, else the pre-session cookie's (made here once). */
function csrfSecret(req: Request, res: Response, secure: boolean): string {
  if (res.locals.sessionToken !== undefined) return res.locals.sessionToken;
  const existing = readCookie(req, PRESESSION_COOKIE);
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  // One per response: a second call must not issue a second cookie that the first form would not match.
  if (res.locals.presession === undefined) {
    res.locals.presession = randomToken();
    setCookie(res, PRESESSION_COOKIE, res.locals.presession, { secure, sameSite: 'strict' });
  }
  return res.locals.presession;
}

export function csrfToken(req: Request, res: Response, secure: boolean): string {
  return tokenKeyedBy(csrfSecret(req, res, secure));
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The valid session token of this request, once the session is checked. */
    sessionToken?: string;
    /** A pre-session value made for this response, before its cookie reaches the browser. */
    presession?: string;
  }
}

export function csrfValid(req: Request, res: Response): boolean {
  const secret = res.locals.sessionToken ?? readCookie(req, PRESESSION_COOKIE);
  const field: unknown = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (secret === undefined || typeof field !== 'string') return false;
  const expected = Buffer.from(tokenKeyedBy(secret));
  const given = Buffer.from(field);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Whether a state-changing request came from this site's own pages, as far as the browser says (Fetch Metadata, then
 * Origin): a sibling subdomain is same-site but not same-origin, and is refused too. A request with neither header
 * (a non-browser client, an old browser) is left to the token.
 */
export function sentFromOwnPages(req: Request, publicOrigin: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.get('origin');
  if (origin === undefined) return true;
  return origin === publicOrigin || origin === `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * The caller's address for per-address limits: the socket's peer, or with TRUST_PROXY set (express's `trust proxy`)
 * the address the trusted proxies put in X-Forwarded-For.
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The largest form a dashboard page sends; an article's text is the longest field. */
export const FORM_LIMIT = '32kb';

/** A form the parser refused, as the page that says so; undefined for any other failure. */
export function formRefusal(error: unknown): { status: number; title: string; message: string } | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large' || type === 'parameters.too.many') {
    return { status: 413, title: 'Form too large', message: `This form sent more than a page's form holds (${FORM_LIMIT}), so nothing was changed. Shorten what you entered and try again.` };
  }
  if (type === 'entity.parse.failed' || type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { status: 400, title: 'Form not readable', message: 'This form arrived in a shape the page cannot read, so nothing was changed. Reload the page and try again.' };
  }
  return undefined;
}
