import type { RequestHandler, Router } from 'express';
import { listDefault, unsubscribeToken } from '../../../notifications/recipients.js';
import { isTimeZone } from '../../../workspace/settings.js';
import type { DashboardDeps } from '../../pageContext.js';
import { html } from '../../html.js';
import { csrfField } from '../../layout.js';
import { showPage } from '../../kit.js';
import type { DashboardPage } from '../../dashboardPage.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
// Some runtimes leave UTC out of their list of zones.
const TIME_ZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

interface EmailSettings {
  digest: boolean;
  alerts: boolean;
  digestDay: number;
  digestHour: number;
  /** The person's own zone; null: the workspace's. */
  timeZone: string | null;
}

/** The signed-in person's own mail settings in this workspace, the role's defaults where they chose nothing. */
async function ownSettings(deps: DashboardDeps, workspaceId: string, userId: string, role: 'owner' | 'member'): Promise<EmailSettings> {
  const row = await deps.db.selectFrom('notification_settings').selectAll().where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return {
    digest: row?.digest === null || row === undefined ? listDefault(role) : row.digest === 1,
    alerts: row?.alert_email === null || row === undefined ? listDefault(role) : row.alert_email === 1,
    digestDay: row?.digest_day ?? 1,
    digestHour: row?.digest_hour ?? 8,
    timeZone: row?.time_zone ?? null,
  };
}

/** The form's values, each checked; undefined with the field and its rule when one is not what the page offers. */
function readForm(body: Record<string, unknown>): { ok: true; settings: EmailSettings } | { ok: false; problem: string } {
  const onOff = (value: unknown) => (value === 'on' ? true : value === 'off' ? false : undefined);
  const whole = (value: unknown, max: number) => (typeof value === 'string' && /^\d{1,2}$/.test(value) && Number(value) <= max ? Number(value) : undefined);
  const digest = onOff(body.digest);
  const alerts = onOff(body.alerts);
  const digestDay = whole(body.digestDay, 6);
  const digestHour = whole(body.digestHour, 23);
  const zone = body.timeZone;
  if (digest === undefined) return { ok: false, problem: 'digest: must be on or off' };
  if (alerts === undefined) return { ok: false, problem: 'alerts: must be on or off' };
  if (digestDay === undefined) return { ok: false, problem: 'digestDay: must be a day of the week' };
  if (digestHour === undefined) return { ok: false, problem: 'digestHour: must be an hour from 0 to 23' };
  if (typeof zone !== 'string' || (zone !== '' && !isTimeZone(zone))) return { ok: false, problem: 'timeZone: must be a time zone such as Europe/Paris, or empty for the workspace\u2019s' };
  return { ok: true, settings: { digest, alerts, digestDay, digestHour, timeZone: zone === '' ? null : zone } };
}

/** Email: the signed-in person's own digest and alert mail settings; nobody changes another person's. */
function emailRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {
  const show = async (res: Parameters<RequestHandler>[1], status: number, problem?: string) => {
    const current = res.locals.current!;
    const user = res.locals.visit!.user;
    const settings = await ownSettings(deps, current.workspaceId, user.userId, current.role);
    const choice = (name: string, on: boolean, label: string) =>
      html`<label>${label} <select name="${name}"><option value="on"${on ? html` selected` : ''}>On</option><option value="off"${on ? '' : html` selected`}>Off</option></select></label>`;
    const zones = settings.timeZone === null || TIME_ZONES.includes(settings.timeZone) ? TIME_ZONES : [settings.timeZone, ...TIME_ZONES];
    showPage(
      deps,
      res,
      'Email',
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}${
        res.req.query.saved === '1' ? html`<p class="notice" role="status" id="saved">Saved.</p>` : ''
      }
<p>What Sightline mails <strong>${user.email}</strong> about ${current.name}. These are your own settings; every member chooses theirs.</p>
<form method="post" action="/w/${current.workspaceId}/email" id="email-settings">
  ${csrfField(res.locals.visit!.csrf)}
  ${choice('digest', settings.digest, 'Weekly digest')}
  ${choice('alerts', settings.alerts, 'Alert mail')}
  <label>Digest day <select name="digestDay">${DAYS.map((day, i) => html`<option value="${i}"${i === settings.digestDay ? html` selected` : ''}>${day}</option>`)}</select></label>
  <label>Digest hour <select name="digestHour">${Array.from({ length: 24 }, (_, h) => html`<option value="${h}"${h === settings.digestHour ? html` selected` : ''}>${String(h).padStart(2, '0')}:00</option>`)}</select></label>
  <label>Time zone <select name="timeZone"><option value=""${settings.timeZone === null ? html` selected` : ''}>The workspace\u2019s (${current.timeZone})</option>${zones.map(
    (zone) => html`<option value="${zone}"${zone === settings.timeZone ? html` selected` : ''}>${zone}</option>`,
  )}</select></label>
  <button type="submit">Save email settings</button>
</form>
<p class="muted">The digest covers the last week that has ended (Monday to Sunday, UTC) and arrives at your day and hour. Owners get both mails until they turn them off; members once they turn them on.</p>`,
      { at: 'email', status },
    );
  };
  router.post('/w/:ws/email', ...stack, async (req, res) => {
    const current = res.locals.current!;
    const userId = res.locals.visit!.user.userId;
    const form = readForm(req.body as Record<string, unknown>);
    if (!form.ok) {
      await show(res, 400, form.problem);
      return;
    }
    const { settings } = form;
    // The row (with its unsubscribe token) exists once this returns; then only the visitor's own row is changed.
    await unsubscribeToken(deps.db, deps.clock, current.workspaceId, userId);
    await deps.db
      .updateTable('notification_settings')
      .set({
        digest: settings.digest ? 1 : 0,
        alert_email: settings.alerts ? 1 : 0,
        digest_day: settings.digestDay,
        digest_hour: settings.digestHour,
        time_zone: settings.timeZone,
        updated_at: deps.clock.now(),
      })
      .where('workspace_id', '=', current.workspaceId)
      .where('user_id', '=', userId)
      .execute();
    res.redirect(303, `/w/${current.workspaceId}/email?saved=1`);
  });
  router.get('/w/:ws/email', ...stack, (_req, res) => show(res, 200));
}

export const WORKSPACE_EMAIL: DashboardPage = {
  area: 'workspace',
  path: 'email',
  title: 'Email',
  routes: (router, deps, { inWorkspace }) => emailRoutes(router, deps, inWorkspace),
};
