import express, { type Request, type Response } from 'express';
import { MAIL_LISTS, type MailList } from '../notifications/recipients.js';
import { html } from './html.js';
import type { DashboardDeps } from './pageContext.js';
import { sendPage } from './pageContext.js';
import { pageHeaders } from './security.js';

const LIST_NAMES: Record<MailList, string> = { digest: 'the weekly digest', alerts: 'alert mail' };
// RFC 8058's body, as mail clients post it: form-urlencoded, or a multipart field of that name and value.
const ONE_CLICK = /(?:^|&)List-Unsubscribe=One-Click(?:&|$)|name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/;
const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

function listOf(value: unknown): MailList | undefined {
  return MAIL_LISTS.find((list) => list === value);
}

/**
 * The unsubscribe links of Sightline's mail (RFC 8058). GET only shows a button, since link scanners open every link
 * of a mail; the POST a mail client sends (no cookie, no CSRF token: the token in the address is the credential) or
 * the page's button turns that list off. An unknown token is the same 404 whatever it resembles.
 */
export function unsubscribePages(deps: DashboardDeps): express.Router {
  const { db, clock } = deps;
  const router = express.Router();
  const rawBody = express.text({ type: () => true, limit: '4kb' });

  async function settingsOf(req: Request) {
    const token = String(req.params.token);
    if (!TOKEN.test(token)) return undefined;
    return db
      .selectFrom('notification_settings as s')
      .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
      .select(['s.workspace_id', 's.user_id', 's.unsubscribe_token', 'w.name'])
      .where('s.unsubscribe_token', '=', token)
      .executeTakeFirst();
  }

  const notFound = (res: Response) => sendPage(res, 404, 'Link not valid', { csrf: '' }, html`<p>This unsubscribe link is not valid.</p>`);
  const badList = (res: Response) => sendPage(res, 400, 'Link not valid', { csrf: '' }, html`<p class="notice error" role="alert">list: must be digest or alerts.</p>`);

  router.get('/unsubscribe/:token', pageHeaders, async (req: Request, res: Response) => {
    const list = listOf(req.query.list ?? 'digest');
    if (list === undefined) return badList(res);
    const settings = await settingsOf(req);
    if (settings === undefined) return notFound(res);
    sendPage(
      res,
      200,
      'Unsubscribe',
      { csrf: '' },
      html`<p>Stop ${LIST_NAMES[list]} from Sightline about <strong>${settings.name}</strong>?</p>
<form method="post" action="/unsubscribe/${settings.unsubscribe_token}?list=${list}">
  <input type="hidden" name="List-Unsubscribe" value="One-Click">
  <button type="submit">Unsubscribe from ${LIST_NAMES[list]}</button>
</form>
<p class="muted">Signed-in members change every mail setting on the workspace\u2019s Email page.</p>`,
    );
  });

  router.post('/unsubscribe/:token', pageHeaders, rawBody, async (req: Request, res: Response) => {
    const list = listOf(req.query.list ?? 'digest');
    if (list === undefined) return badList(res);
    const settings = await settingsOf(req);
    if (settings === undefined) return notFound(res);
    const body = typeof req.body === 'string' ? req.body : '';
    if (!ONE_CLICK.test(body.trim())) {
      sendPage(res, 400, 'Unsubscribe', { csrf: '' }, html`<p class="notice error" role="alert">List-Unsubscribe: the body must be List-Unsubscribe=One-Click (RFC 8058).</p>`);
      return;
    }
    await db
      .updateTable('notification_settings')
      .set(list === 'digest' ? { digest: 0, updated_at: clock.now() } : { alert_email: 0, updated_at: clock.now() })
      .where('unsubscribe_token', '=', settings.unsubscribe_token)
      .execute();
    deps.logger.info({ workspaceId: settings.workspace_id, userId: settings.user_id, list }, 'unsubscribed by link');
    sendPage(
      res,
      200,
      'Unsubscribed',
      { csrf: '' },
      html`<p role="status" id="unsubscribed">Done: no more ${LIST_NAMES[list]} from Sightline about <strong>${settings.name}</strong>.</p>
<p class="muted">Members turn it back on on the workspace\u2019s Email page.</p>`,
    );
  });
  return router;
}
