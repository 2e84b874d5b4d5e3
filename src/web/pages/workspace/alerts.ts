import type { Response } from 'express';
import type { z } from 'zod';
import type { alertChannel, alertRule } from '../../../../tools/changes/outputs.js';
import type { DashboardDeps } from '../../pageContext.js';
import { formatTime } from '../../format.js';
import { html, type SafeHtml } from '../../html.js';
import { operationForm } from '../../kit.js';
import { readOperation } from '../../operations.js';
import { selectField, textField, yesNo } from '../brand/fields.js';
import { kindLabel } from '../../../changes/alertFormats.js';
import { ENGINE_NAMES } from '../../../visibility/engines/engine.js';
import { engineLabel } from '../visibility/shared.js';

type AlertRule = z.infer<typeof alertRule>;
type AlertChannel = z.infer<typeof alertChannel>;

const SEVERITIES = [
  { value: 'critical', label: 'critical only' },
  { value: 'warning', label: 'warning and critical' },
  { value: 'info', label: 'everything (info and up)' },
];
const CHANNEL_KINDS = [
  { value: 'slack', label: 'Slack incoming webhook' },
  { value: 'discord', label: 'Discord webhook' },
  { value: 'teams', label: 'Microsoft Teams (Workflows webhook)' },
  { value: 'webhook', label: 'Webhook destination (signed events)' },
];

/**
 * The engines a rule watches, as checkboxes. The hidden empty field always sends `engines`, so unticking every box
 * sends an empty list (every engine) instead of nothing (which would leave the stored list as it was).
 */
function enginesField(engines: readonly string[]): SafeHtml {
  return html`<fieldset><legend>Engines <span class="muted">(none ticked: every engine)</span></legend><input type="hidden" name="engines" value="">${ENGINE_NAMES.map(
    (engine) => html`<label><input type="checkbox" name="engines" value="${engine}"${engines.includes(engine) ? html` checked` : ''}> ${engineLabel(engine)}</label>`,
  )}</fieldset>`;
}

/** What a rule watches beyond on/off: its engines and queries, where the kind can be narrowed to them. */
function scopeText(rule: AlertRule): string {
  const parts = [
    ...(rule.perEngine ? [rule.rule.engines.length === 0 ? 'every engine' : rule.rule.engines.map(engineLabel).join(', ')] : []),
    // Queries are chosen by id through update_alert_rule; thousands of them do not fit a form.
    ...(rule.perQuery ? [rule.rule.queryIds.length === 0 ? 'every query' : `${rule.rule.queryIds.length} chosen ${rule.rule.queryIds.length === 1 ? 'query' : 'queries'}`] : []),
  ];
  return parts.join('; ');
}

function ruleRow(res: Response, rule: AlertRule, owner: boolean): SafeHtml {
  const threshold = rule.threshold === null ? html`<span class="muted">on or off</span>` : html`${rule.rule.threshold ?? ''} <span class="muted">(${rule.threshold.meaning}; ${rule.threshold.min}-${rule.threshold.max})</span>`;
  const scope = scopeText(rule);
  const form = owner
    ? operationForm(res, {
        operationId: 'update_alert_rule',
        hidden: { kind: rule.kind },
        fields: html`${yesNo('enabled', 'On', rule.rule.enabled)}${rule.threshold === null ? '' : textField('threshold', 'Threshold', String(rule.rule.threshold ?? ''))}${rule.perEngine ? enginesField(rule.rule.engines) : ''}`,
        button: `Save ${rule.kind}`,
        buttonClass: 'secondary',
        inline: true,
      })
    : '';
  return html`<tr>
<th scope="row">${kindLabel(rule.kind)} <span class="muted">${rule.kind}</span></th>
<td>${rule.severity}</td>
<td>${rule.definition}</td>
<td>${rule.rule.enabled ? 'on' : 'off'}${scope === '' ? '' : html`<br><span class="muted">${scope}</span>`}</td>
<td>${threshold}</td>
${owner ? html`<td>${form}</td>` : ''}
</tr>`;
}

function channelRow(res: Response, channel: AlertChannel, owner: boolean): SafeHtml {
  const last = channel.lastSend;
  const lastText = last === null ? html`<span class="muted">none yet</span>` : html`${last.state}${last.statusCode === null ? '' : ` (${last.statusCode})`}, ${formatTime(last.at, res.locals.current!.timeZone)}${last.error === null ? '' : html`<br><span class="muted">${last.error}</span>`}`;
  const actions = owner
    ? html`<td>${operationForm(res, { operationId: 'send_test_alert', hidden: { channelId: channel.channelId }, button: `Send a test alert to ${channel.name}`, buttonClass: 'secondary', inline: true })}
${operationForm(res, { operationId: 'remove_alert_channel', hidden: { channelId: channel.channelId }, button: `Remove ${channel.name}`, buttonClass: 'danger', inline: true })}</td>`
    : '';
  return html`<tr><th scope="row">${channel.name}</th><td>${channel.kind}</td><td>${channel.target ?? channel.destinationId ?? ''}</td><td>${channel.minSeverity} and up</td><td>${lastText}</td>${actions}</tr>`;
}

/** Settings → Alerts: the rules of each change kind, the daily cap, and the channels alerts go to; changes are an owner's. */
export async function alertsSection(deps: DashboardDeps, res: Response): Promise<SafeHtml> {
  const owner = res.locals.current!.role === 'owner';
  const { alertsPerDay, rules } = await readOperation<{ alertsPerDay: number; rules: AlertRule[] }>(deps, res, 'list_alert_rules');
  const { channels } = await readOperation<{ channels: AlertChannel[] }>(deps, res, 'list_alert_channels');
  const cap = owner
    ? operationForm(res, { operationId: 'update_alert_settings', fields: textField('alertsPerDay', 'Alert messages per recipient per day', String(alertsPerDay)), button: 'Save the daily cap', id: 'alerts-per-day' })
    : html`<p>At most ${alertsPerDay} alert messages per recipient per day.</p>`;
  const add = owner
    ? operationForm(res, {
        operationId: 'add_alert_channel',
        id: 'add-alert-channel',
        fields: html`${selectField('kind', 'Kind', CHANNEL_KINDS, 'slack')}
${textField('name', 'Name', '', { required: true, placeholder: '#marketing' })}
${textField('url', 'Incoming-webhook URL', '', { type: 'url', hint: 'Slack, Discord, Teams: https only' })}
${textField('destinationId', 'Webhook destination id', '', { hint: 'webhook only: from the Publishing page' })}
${selectField('minSeverity', 'Send', SEVERITIES, 'warning')}`,
        button: 'Add channel',
      })
    : '';
  return html`<h2 id="alerts">Alerts</h2>
<p>Sightline sends the changes it notices as they happen: one message per channel grouping what is new, at most the daily cap. People get warning and critical changes by mail when their alert mail is on.</p>
${cap}
<h3>Channels</h3>
${channels.length === 0 ? html`<p class="muted" id="no-alert-channels">No channels yet.</p>` : html`<div class="table-wrap" tabindex="0"><table id="alert-channels"><caption>Alert channels</caption><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Target</th><th scope="col">Severity</th><th scope="col">Last send</th>${owner ? html`<th scope="col">Actions</th>` : ''}</tr></thead><tbody>${channels.map((channel) => channelRow(res, channel, owner))}</tbody></table></div>`}
${add}
<h3>Rules</h3>
<div class="table-wrap" tabindex="0"><table id="alert-rules"><caption>What counts as a change</caption><thead><tr><th scope="col">Kind</th><th scope="col">Severity</th><th scope="col">Definition</th><th scope="col">State</th><th scope="col">Threshold</th>${owner ? html`<th scope="col">Change</th>` : ''}</tr></thead><tbody>${rules.map((rule) => ruleRow(res, rule, owner))}</tbody></table></div>`;
}
