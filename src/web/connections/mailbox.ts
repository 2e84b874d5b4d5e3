import express, { type RequestHandler, type Response } from 'express';
import type { Membership } from '../../accounts/sessions.js';
import { MailConnectionError, MailSetupError } from '../../outreach/mailHosts.js';
import {
  DEFAULT_DAILY_CAP,
  DEFAULT_QUIET_DAYS,
  findMailbox,
  formProblem,
  mailboxForm,
  mailboxPagePath,
  readMailboxView,
  removeMailbox,
  saveMailbox,
  smtpAccount,
  type MailboxView,
} from '../../outreach/mailbox.js';
import { listUnsubscribe, newMessageId } from '../../outreach/messages.js';
import { sendOverSmtp, SmtpRefused } from '../../outreach/smtp.js';
import { BadInputError } from '../../errors.js';
import { type DashboardDeps, sendPage } from '../pageContext.js';
import { html, type SafeHtml } from '../html.js';
import { formatTime } from '../format.js';
import { csrfField } from '../layout.js';
import { ownerConnectionPages } from './ownerOnly.js';

/** The outreach part of the Settings page: whether a mailbox is set up, and for owners the link to its settings. */
export async function outreachMailboxSection(deps: DashboardDeps, current: Membership): Promise<SafeHtml> {
  const view = await readMailboxView(deps.db, current.workspaceId);
  const state =
    view === undefined
      ? html`<p>No mailbox yet: outreach emails cannot be sent until one is set up.</p>`
      : html`<p>Sending from <strong>${view.fromAddress}</strong> (up to ${view.dailyCap} a day); replies ${view.imapHost === null ? 'are not read' : html`are read from ${view.imapHost} (last read ${formatTime(view.imapCheckedAt, current.timeZone)})`}.</p>${view.imapError === null ? '' : html`<p class="notice error" role="alert">${view.imapError}</p>`}`;
  const link = current.role === 'owner' ? html`<p><a href="${mailboxPagePath(current.workspaceId)}">Mailbox settings</a></p>` : html`<p class="muted">An owner of this workspace sets the mailbox up.</p>`;
  return html`<h2>Outreach mailbox</h2><div id="outreach-mailbox">${state}${link}</div>`;
}

const input = (label: string, name: string, value: string | number | null, attributes: SafeHtml | string = '') =>
  html`<label>${label} <input name="${name}" value="${value ?? ''}" ${attributes}></label>`;
const checkbox = (label: string, name: string, checked: boolean) => html`<label><input type="checkbox" name="${name}" value="on"${checked ? html` checked` : ''}> ${label}</label>`;

function settingsForm(workspaceId: string, csrf: string, view: MailboxView | undefined, values: Record<string, string> = {}): SafeHtml {
  const pick = (name: string, stored: string | number | null | undefined) => values[name] ?? (stored === null || stored === undefined ? '' : String(stored));
  const kept = view === undefined ? html`required` : html`placeholder="stored: leave blank to keep"`;
  return html`<form method="post" action="${mailboxPagePath(workspaceId)}" id="mailbox-form">${csrfField(csrf)}
<fieldset><legend>Sender</legend>
${input('From name', 'fromName', pick('fromName', view?.fromName), 'required')}
${input('From address', 'fromAddress', pick('fromAddress', view?.fromAddress), 'type="email" required')}
</fieldset>
<fieldset><legend>SMTP (sending)</legend>
${input('Host', 'smtpHost', pick('smtpHost', view?.smtpHost), 'required')}
${input('Port', 'smtpPort', pick('smtpPort', view?.smtpPort ?? 587), 'inputmode="numeric" required')}
${checkbox('TLS from the start (port 465); otherwise STARTTLS', 'smtpSecure', values.smtpSecure === undefined ? (view?.smtpSecure ?? false) : values.smtpSecure === 'on')}
${input('User', 'smtpUser', pick('smtpUser', view?.smtpUser), 'required autocomplete="off"')}
<label>Password <input type="password" name="smtpPassword" autocomplete="new-password" ${kept}></label>
</fieldset>
<fieldset><legend>IMAP (reading replies; leave the host blank to not read them)</legend>
${input('Host', 'imapHost', pick('imapHost', view?.imapHost))}
${input('Port', 'imapPort', pick('imapPort', view?.imapPort ?? 993), 'inputmode="numeric"')}
${checkbox('TLS from the start (port 993); otherwise STARTTLS', 'imapSecure', values.imapSecure === undefined ? (view?.imapSecure ?? true) : values.imapSecure === 'on')}
${input('User (blank: the SMTP user)', 'imapUser', pick('imapUser', view?.imapUser), 'autocomplete="off"')}
<label>Password <input type="password" name="imapPassword" autocomplete="new-password" ${view?.hasImapPassword ? html`placeholder="stored: leave blank to keep"` : ''}></label>
</fieldset>
<fieldset><legend>Guardrails</legend>
${input('Emails a day at most', 'dailyCap', pick('dailyCap', view?.dailyCap ?? DEFAULT_DAILY_CAP), 'inputmode="numeric" required')}
${input('Quiet period in days (no second first email to the same address)', 'quietDays', pick('quietDays', view?.quietDays ?? DEFAULT_QUIET_DAYS), 'inputmode="numeric" required')}
</fieldset>
<button type="submit">Save mailbox</button></form>`;
}

const FORM_FIELDS = ['fromName', 'fromAddress', 'smtpHost', 'smtpPort', 'smtpSecure', 'smtpUser', 'imapHost', 'imapPort', 'imapSecure', 'imapUser', 'dailyCap', 'quietDays'];

/** An owner's page for the workspace's outreach mailbox: settings (passwords never shown back), a test send, removal. */
export function outreachMailboxPages(deps: DashboardDeps, signedIn: RequestHandler[]): express.Router {
  const { db, clock, config, credentials } = deps;
  const router = express.Router();
  const { ownedWorkspace } = ownerConnectionPages({ title: 'Outreach mailbox', service: 'the outreach mailbox', errorId: 'mailbox-error' });

  const showPage = async (res: Response, workspace: Membership, status: number, notice?: SafeHtml, values?: Record<string, string>) => {
    const view = await readMailboxView(db, workspace.workspaceId);
    const csrf = res.locals.visit!.csrf;
    const actions =
      view === undefined
        ? ''
        : html`<form method="post" action="${mailboxPagePath(workspace.workspaceId)}/test">${csrfField(csrf)}<button type="submit">Send a test email to ${view.fromAddress}</button></form>
<form method="post" action="${mailboxPagePath(workspace.workspaceId)}/remove">${csrfField(csrf)}<button type="submit">Remove the mailbox</button></form>`;
    sendPage(
      res,
      status,
      'Outreach mailbox',
      { ...res.locals.visit!, current: workspace },
      html`${notice ?? ''}<p>Outreach emails go out from this mailbox over SMTP; replies are read from its inbox over IMAP. Passwords are stored encrypted when the server has SECRETS_KEY set, and are never shown again.</p>
${settingsForm(workspace.workspaceId, csrf, view, values)}${actions}<p><a href="/w/${workspace.workspaceId}/settings">Back to Settings</a></p>`,
    );
  };

  router.get('/w/:ws/outreach/mailbox', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace !== undefined) await showPage(res, workspace, 200);
  });

  router.post('/w/:ws/outreach/mailbox', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const body = req.body as Record<string, unknown>;
    const values = Object.fromEntries(FORM_FIELDS.map((name) => [name, typeof body[name] === 'string' ? body[name] : '']));
    const problem = (text: string) => showPage(res, workspace, 400, html`<p class="notice error" role="alert" id="mailbox-error">${text}</p>`, values);
    const parsed = mailboxForm.safeParse(body);
    if (!parsed.success) return problem(formProblem(parsed.error));
    try {
      await saveMailbox(db, clock, credentials, workspace.workspaceId, parsed.data);
    } catch (error) {
      if (error instanceof BadInputError) return problem(error.message);
      throw error;
    }
    return showPage(res, workspace, 200, html`<p class="notice" role="status">Mailbox saved.</p>`);
  });

  router.post('/w/:ws/outreach/mailbox/test', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    const mailbox = await findMailbox(db, workspace.workspaceId);
    if (mailbox === undefined) return showPage(res, workspace, 400, html`<p class="notice error" role="alert" id="mailbox-error">Save the mailbox first.</p>`);
    try {
      await sendOverSmtp(config.mail, smtpAccount(mailbox, credentials), {
        from: { name: mailbox.fromName, address: mailbox.fromAddress },
        to: mailbox.fromAddress,
        subject: 'Sightline outreach: test email',
        text: 'This test shows that Sightline can send outreach emails from this mailbox.',
        messageId: newMessageId(mailbox.fromAddress),
        inReplyTo: null,
        references: null,
        listUnsubscribe: listUnsubscribe(mailbox.fromAddress),
      });
    } catch (error) {
      if (!(error instanceof SmtpRefused || error instanceof MailConnectionError || error instanceof MailSetupError)) throw error;
      return showPage(res, workspace, 502, html`<p class="notice error" role="alert" id="mailbox-error">The test email was not sent: ${error.message}</p>`);
    }
    return showPage(res, workspace, 200, html`<p class="notice" role="status">A test email was sent to ${mailbox.fromAddress}.</p>`);
  });

  router.post('/w/:ws/outreach/mailbox/remove', ...signedIn, async (req, res) => {
    const workspace = ownedWorkspace(req, res);
    if (workspace === undefined) return;
    await removeMailbox(db, workspace.workspaceId);
    res.redirect(303, `/w/${workspace.workspaceId}/settings`);
  });

  return router;
}
