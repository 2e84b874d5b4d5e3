import type { RequestHandler, Router } from 'express';
import type { DashboardDeps } from '../../pageContext.js';
import { cdnSection } from '../../connections/cloudflare.js';
import { formatTime } from '../../format.js';
import { html } from '../../html.js';
import { operationForm, showPage } from '../../kit.js';
import { outreachMailboxSection } from '../../connections/mailbox.js';
import { schedulerSection } from '../../connections/schedulers.js';
import { searchConsoleSection } from '../../connections/google/searchConsole.js';
import { siteAnalyticsSection } from '../../connections/siteAnalytics.js';
import { webflowSection } from '../../connections/webflow.js';
import type { DashboardPage } from '../../dashboardPage.js';
import { alertsSection } from './alerts.js';

// Some runtimes leave UTC, every workspace's default, out of their list of zones.
const TIME_ZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

/** Settings: the workspace's time zone, and the outside services connected to it. */
function settingsRoutes(router: Router, deps: DashboardDeps, stack: RequestHandler[]): void {

  router.get('/w/:ws/settings', ...stack, async (_req, res) => {
    const current = res.locals.current!;
    const zones = TIME_ZONES.includes(current.timeZone) ? TIME_ZONES : [current.timeZone, ...TIME_ZONES];
    const timeZone =
      current.role === 'owner'
        ? operationForm(res, {
            operationId: 'update_workspace_settings',
            fields: html`<label>Time zone <select name="timeZone">${zones.map(
              (zone) => html`<option value="${zone}"${zone === current.timeZone ? html` selected` : ''}>${zone}</option>`,
            )}</select></label>`,
            button: 'Save time zone',
            id: 'time-zone',
          })
        : html`<p class="muted">An owner of this workspace can change it.</p>`;
    showPage(
      deps,
      res,
      'Settings',
      html`<p>${current.name} · ${current.websiteUrl} · you are ${current.role === 'owner' ? 'an owner' : 'a member'} of this workspace.</p>
<h2>Time zone</h2>
<p>Every page shows times in <strong id="current-time-zone">${current.timeZone}</strong> (now ${formatTime(deps.clock.now(), current.timeZone)}); the API answers in UTC.</p>
${timeZone}
${await alertsSection(deps, res)}
${await searchConsoleSection(deps, res, current)}
${await siteAnalyticsSection(deps, res, current)}
${await cdnSection(deps, res, current)}
${await webflowSection(deps, res, current)}
${await outreachMailboxSection(deps, current)}
${await schedulerSection(deps, current)}`,
      { at: 'settings' },
    );
  });
}

export const WORKSPACE_SETTINGS: DashboardPage = {
  area: 'workspace',
  path: 'settings',
  title: 'Settings',
  routes: (router, deps, { inWorkspace }) => settingsRoutes(router, deps, inWorkspace),
};
