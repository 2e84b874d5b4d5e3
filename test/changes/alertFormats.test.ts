import { describe, expect, it } from 'vitest';
import { alertMail, discordPayload, slackPayload, teamsPayload, type AlertMessage } from '../../src/changes/alertFormats.js';
import { CHANGE_KIND_NAMES, CHANGE_KINDS } from '../../src/changes/kinds.js';
import type { ChangeRecord } from '../../src/changes/listChanges.js';
import { discordProblem, slackProblem, teamsProblem } from './alertEndpoints.js';

const NOW = Date.UTC(2026, 10, 29, 12);

/** Every kind, 20 changes with long titles full of markup: the largest message one alert can be. */
function largest(): AlertMessage {
  const changes: ChangeRecord[] = Array.from({ length: 20 }, (_, i) => {
    const kind = CHANGE_KIND_NAMES[i % CHANGE_KIND_NAMES.length]!;
    return {
      id: `chg_${i}`,
      kind,
      severity: CHANGE_KINDS[kind].severity,
      title: `${'<!channel> @everyone *bold* & '.repeat(20)}${i}`,
      detectedAt: new Date(NOW).toISOString(),
      engine: 'chatgpt',
      queryId: 'qry_1',
      query: `${'a very long query '.repeat(10)}`,
      runId: null,
      details: {},
    };
  });
  return { workspaceName: 'Acme & <Sons>', changes, more: 41, lastToday: true, alertsPerDay: 10, changesUrl: 'https://sightline.example/dashboard/changes', test: false };
}

describe('alert formats', () => {
  it('keep the largest message within each vendor\u2019s documented limits', () => {
    const message = largest();
    expect(slackProblem(slackPayload(message))).toBeUndefined();
    expect(discordProblem(discordPayload(message, NOW))).toBeUndefined();
    expect(teamsProblem(teamsPayload(message))).toBeUndefined();
  });

  it('escape what others wrote: Slack\u2019s markup, Discord\u2019s markdown and mentions, HTML in mail', () => {
    const message = largest();
    const slack = JSON.stringify(slackPayload(message));
    expect(slack).not.toContain('<!channel>');
    expect(slack).toContain('&lt;!channel&gt;');
    const discord = discordPayload(message, NOW);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.stringify(discord)).toContain('\\\\*bold\\\\*');
    const mail = alertMail(message, 'https://sightline.example/unsubscribe/t?list=alerts');
    expect(mail.html).not.toMatch(/<!channel>|<Sons>/);
    expect(mail.html).toContain('Acme &amp; &lt;Sons&gt;');
    expect(mail.text).toContain('And 41 more, in the next message.');
  });
});
