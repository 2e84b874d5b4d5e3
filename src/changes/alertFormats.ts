import type { ChangeSeverity } from '../../db/schema.js';
import { escapeHtml } from '../web/html.js';
import { CHANGE_KIND_NAMES, SEVERITY_RANK, type ChangeKind } from './kinds.js';
import type { ChangeRecord } from './listChanges.js';

/** One alert message: the changes it lists, grouped by kind when it is rendered, and what it leaves for later. */
export interface AlertMessage {
  workspaceName: string;
  changes: readonly ChangeRecord[];
  /** Changes waiting beyond this message: they come in the next one. */
  more: number;
  /** This is the recipient's last message of the UTC day (the workspace's alertsPerDay). */
  lastToday: boolean;
  alertsPerDay: number;
  /** The dashboard's Changes page. */
  changesUrl: string;
  /** A sample sent by send_test_alert. */
  test: boolean;
}

interface Group {
  kind: ChangeKind;
  label: string;
  severity: ChangeSeverity;
  changes: ChangeRecord[];
}

/** `citation.lost` → `Citation lost`. */
export function kindLabel(kind: string): string {
  const words = kind.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The changes by kind, the most urgent kinds first, each kind in the catalogue's order; the same change listed once. */
export function groupByKind(changes: readonly ChangeRecord[]): Group[] {
  const seen = new Set<string>();
  const groups = new Map<ChangeKind, Group>();
  for (const change of changes) {
    if (seen.has(change.id)) continue;
    seen.add(change.id);
    const group = groups.get(change.kind) ?? { kind: change.kind, label: kindLabel(change.kind), severity: change.severity, changes: [] };
    group.changes.push(change);
    groups.set(change.kind, group);
  }
  return [...groups.values()].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || CHANGE_KIND_NAMES.indexOf(a.kind) - CHANGE_KIND_NAMES.indexOf(b.kind));
}

/** One change as a line of plain text: its title, the query and the engine it is about. */
export function changeLine(change: ChangeRecord): string {
  const about = [change.query === null ? null : `“${change.query}”`, change.engine].filter((part) => part !== null);
  return about.length === 0 ? change.title : `${change.title} (${about.join(', ')})`;
}

function headline(message: AlertMessage): string {
  if (message.test) return `Test alert from Sightline for ${message.workspaceName}`;
  const count = new Set(message.changes.map((change) => change.id)).size;
  return `${count} change${count === 1 ? '' : 's'} in ${message.workspaceName}`;
}

/** What the message says about the changes it does not list; empty when it lists them all. */
function tail(message: AlertMessage): string[] {
  const lines: string[] = [];
  if (message.test) lines.push('This is a sample: the real alerts list the changes Sightline notices, grouped by kind.');
  if (message.more > 0) lines.push(`And ${message.more} more, in the next message.`);
  if (message.lastToday) lines.push(`That is today's last alert (at most ${message.alertsPerDay} a day): later changes come in tomorrow's first message.`);
  return lines;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack's markup characters (`<!channel>` would notify everyone): escaped as Slack documents. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Slack incoming webhook: `text` (the notification's fallback) and Block Kit blocks (header, mrkdwn sections). */
export function slackPayload(message: AlertMessage): Record<string, unknown> {
  const groups = groupByKind(message.changes);
  const sections = groups.map((group) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(`*${slackEscape(group.label)}* (${group.severity})\n${group.changes.map((change) => `• ${slackEscape(changeLine(change))}`).join('\n')}`, 3000) },
  }));
  const footer = [...tail(message).map(slackEscape), `<${slackEscape(message.changesUrl)}|Open the Changes page>`].join('\n');
  return {
    text: slackEscape(headline(message)),
    blocks: [{ type: 'header', text: { type: 'plain_text', text: truncate(headline(message), 150) } }, ...sections.slice(0, 47), { type: 'section', text: { type: 'mrkdwn', text: footer } }],
  };
}

const DISCORD_COLOURS: Record<ChangeSeverity, number> = { critical: 0xd92d20, warning: 0xf79009, info: 0x2e90fa };

/** Discord's markdown characters, escaped so a query's text shows as written. */
function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()-]/g, (char) => `\\${char}`);
}

/**
 * Discord webhook: a short `content` and one embed (title ≤ 256, description ≤ 4096, ≤ 25 fields of ≤ 1024, 6,000 in
 * all), with mentions parsed from nothing, so a text with @everyone notifies no one.
 */
export function discordPayload(message: AlertMessage, now: number): Record<string, unknown> {
  const groups = groupByKind(message.changes);
  const top = groups[0]?.severity ?? 'info';
  let budget = 6000;
  const title = truncate(headline(message), 256);
  budget -= title.length;
  const description = truncate([...tail(message), `Open the Changes page: ${message.changesUrl}`].map(discordEscape).join('\n'), 4096);
  budget -= description.length;
  const fields: Array<{ name: string; value: string }> = [];
  for (const group of groups.slice(0, 25)) {
    const name = truncate(`${group.label} (${group.severity})`, 256);
    const value = truncate(group.changes.map((change) => `• ${discordEscape(changeLine(change))}`).join('\n'), 1024);
    if (name.length + value.length > budget) break;
    budget -= name.length + value.length;
    fields.push({ name, value });
  }
  return {
    content: truncate(headline(message), 2000),
    embeds: [{ title, description, url: message.changesUrl, color: DISCORD_COLOURS[top], fields, timestamp: new Date(now).toISOString() }],
    allowed_mentions: { parse: [] },
  };
}

/** Microsoft Teams (a Workflows "post to a channel when a webhook request is received" flow): a message carrying one Adaptive Card 1.4. */
export function teamsPayload(message: AlertMessage): Record<string, unknown> {
  const groups = groupByKind(message.changes);
  const body: Array<Record<string, unknown>> = [{ type: 'TextBlock', text: headline(message), size: 'Large', weight: 'Bolder', wrap: true }];
  for (const group of groups) {
    body.push({ type: 'TextBlock', text: `${group.label} (${group.severity})`, weight: 'Bolder', wrap: true, spacing: 'Medium' });
    for (const change of group.changes) body.push({ type: 'TextBlock', text: `• ${changeLine(change)}`, wrap: true, spacing: 'Small' });
  }
  for (const line of tail(message)) body.push({ type: 'TextBlock', text: line, wrap: true, isSubtle: true });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: 'Open the Changes page', url: message.changesUrl }],
        },
      },
    ],
  };
}

/** An alert mail: the subject, a plain-text part and a simple HTML part with every outside text escaped. */
export function alertMail(message: AlertMessage, unsubscribeUrl: string): { subject: string; text: string; html: string } {
  const groups = groupByKind(message.changes);
  const kinds = groups.map((group) => group.label).join(', ');
  const subject = truncate(message.test ? headline(message) : `${headline(message)}: ${kinds}`, 200);
  const text = [
    headline(message),
    '',
    ...groups.flatMap((group) => [`${group.label} (${group.severity})`, ...group.changes.map((change) => `- ${changeLine(change)}`), '']),
    ...tail(message),
    `All changes: ${message.changesUrl}`,
    '',
    `Stop these alerts: ${unsubscribeUrl}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<h1 style="font-size:18px">${escapeHtml(headline(message))}</h1>
${groups
  .map((group) => `<h2 style="font-size:15px">${escapeHtml(group.label)} <span style="color:#555">(${group.severity})</span></h2>\n<ul>${group.changes.map((change) => `<li>${escapeHtml(changeLine(change))}</li>`).join('')}</ul>`)
  .join('\n')}
${tail(message)
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('\n')}
<p><a href="${escapeHtml(message.changesUrl)}">Open the Changes page</a></p>
<p style="color:#555;font-size:12px"><a href="${escapeHtml(unsubscribeUrl)}">Stop these alerts</a></p>
</body></html>`;
  return { subject, text, html };
}
