import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestService } from '../support/harness.js';
import { hiddenFields, type Visitor } from '../support/visitor.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start({ outbound: { allowPrivateAddresses: true } });
});
afterAll(() => t.close());

const text = async (visitor: Visitor, path: string) => {
  const answer = await visitor.request(path);
  expect(answer.status, path).toBe(200);
  return answer.text();
};

/** Posts the first form on the page (or in `page`) that runs `operationId`, with `fields` filled in, as a browser would. */
async function submit(visitor: Visitor, page: string, operationId: string, fields: Record<string, string> = {}) {
  const form = [...page.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((match) => match[1]!.endsWith(`/do/${operationId}`));
  expect(form, `the page has a form for ${operationId}`).toBeDefined();
  return visitor.request(form![1]!, { method: 'POST', form: { ...hiddenFields(form![2]!), ...fields } });
}

it('shows the alert rules and channels in the settings, and an owner changes them through CSRF-checked forms', async () => {
  const owner = await t.signedInOwner();
  const settings = `/w/${owner.workspaceId}/settings`;
  let page = await text(owner.visitor, settings);
  expect(page).toContain('<h2 id="alerts">Alerts</h2>');
  expect(page).toContain('id="no-alert-channels"');
  expect(page).toContain('Crawler blocked');

  const cap = await submit(owner.visitor, page, 'update_alert_settings', { alertsPerDay: '3' });
  expect(cap.status).toBe(303);
  const rule = await submit(owner.visitor, await text(owner.visitor, settings), 'update_alert_rule', { enabled: 'false', engines: 'perplexity' });
  expect(rule.status).toBe(303);
  const rulesNow = async () => {
    const rules = await t.rest(owner.key, 'GET', '/api/v1/changes/rules');
    return rules.body.data as { alertsPerDay: number; rules: Array<{ kind: string; perEngine: boolean; rule: { enabled: boolean; engines: string[] } }> };
  };
  let data = await rulesNow();
  expect(data.alertsPerDay).toBe(3);
  expect(data.rules[0]).toMatchObject({ perEngine: true, rule: { enabled: false, engines: ['perplexity'] } });
  page = await text(owner.visitor, settings);
  expect(page).toContain('<input type="checkbox" name="engines" value="perplexity" checked>');
  expect(page).toContain('off<br><span class="muted">Perplexity</span>');
  // Unticking every engine sends the hidden empty field alone: back to every engine, not left as it was.
  expect((await submit(owner.visitor, page, 'update_alert_rule')).status).toBe(303);
  data = await rulesNow();
  expect(data.rules[0]!.rule.engines).toEqual([]);

  // Adding a channel is a dry run first, confirmed on the next page.
  const dry = await submit(owner.visitor, await text(owner.visitor, settings), 'add_alert_channel', { kind: 'slack', name: '<script>alert(1)</script>', url: 'https://hooks.slack.example/services/T0/B0/abcd', minSeverity: 'critical' });
  expect(dry.status).toBe(200);
  const confirmPage = await dry.text();
  expect(confirmPage).toContain('Would send alerts of severity critical and above');
  const added = await submit(owner.visitor, confirmPage, 'add_alert_channel');
  expect(added.status).toBe(303);
  page = await text(owner.visitor, settings);
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page).not.toContain('<script>alert(1)</script>');
  expect(page).toContain('https://hooks.slack.example/…abcd');
  expect(page).not.toContain('/services/T0/B0/abcd');

  // Without the CSRF token the same form is refused.
  const form = [...page.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((match) => match[1]!.endsWith('/do/update_alert_settings'))!;
  const { _csrf: _token, ...withoutToken } = hiddenFields(form[2]!);
  const refused = await owner.visitor.request(form[1]!, { method: 'POST', form: { ...withoutToken, alertsPerDay: '7' } });
  expect(refused.status).toBe(403);
});
