import { timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import { randomToken } from '../secrets.js';

export const SESSION_COOKIE = 'sl_session';
const CSRF_COOKIE = 'sl_csrf';
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
 * Double-submit CSRF protection: a random token in a strict same-site cookie and in every form; a POST whose two
 * copies differ is refused. It covers the sign-in form too, where no session exists yet.
 */
export function csrfToken(req: Request, res: Response, secure: boolean): string {
  // One token per response: a second call must not issue a second cookie that the first form would not match.
  if (res.locals.csrfToken !== undefined) return res.locals.csrfToken;
  const existing = readCookie(req, CSRF_COOKIE);
  let token: string;
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) token = existing;
  else {
    token = randomToken();
    setCookie(res, CSRF_COOKIE, token, { secure, sameSite: 'strict' });
  }
  res.locals.csrfToken = token;
  return token;
}

declare module 'express-serve-static-core' {
  interface Locals {
    csrfToken?: string;
  }
}

export function csrfValid(req: Request): boolean {
  const cookie = readCookie(req, CSRF_COOKIE);
  const field: unknown = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (cookie === undefined || typeof field !== 'string' || cookie.length !== field.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(field));
}

/**
 * The caller's address for per-address limits: the socket's peer, or with TRUST_PROXY set (express's `trust proxy`)
 * the address the trusted proxies put in X-Forwarded-For.
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
