import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChanges } from '../../src/changes/record.js';
import { TestService } from '../support/harness.js';
import { signedInVisitor } from './formVisitor.js';

let t: TestService;
beforeAll(async () => {
  t = await TestService.start();
});
afterAll(() => t.close());

describe('Changes page and the overview badge', () => {
  it('lists the changes newest first with their figures, escaped, filtered by severity, and badges the overview', async () => {
    const { ws, visitor } = await signedInVisitor(t, 'member', 'changes');
    const other = await t.workspace({ name: 'Other', site: 'https://other.example' });
    const quiet = await (await visitor.request(`/w/${ws.workspaceId}`)).text();
    expect(quiet).not.toContain('id="changes-badge"');

    await recordChanges(t.db, t.clock, other.workspaceId, [{ kind: 'delivery.failed', dedupeKey: 'x', title: 'Their delivery failed', details: {} }]);
    await recordChanges(t.db, t.clock, ws.workspaceId, [
      { kind: 'outreach.replied', dedupeKey: 'r1', title: 'blog.example replied <script>alert(1)</script>', details: { prospect: 'blog.example' } },
      { kind: 'delivery.failed', dedupeKey: 'd1', title: 'The delivery of "Dental CRM" failed after 5 attempts', details: { statusCode: 502 } },
      { kind: 'citation.lost', dedupeKey: 'c1', title: 'ChatGPT stopped citing you', details: {}, engine: 'chatgpt' },
    ]);

    const page = await visitor.request(`/w/${ws.workspaceId}/changes`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('blog.example replied &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toContain('<script>alert(1)');
    expect(text).toContain('<span class="severity severity-critical">critical</span>');
    expect(text).toContain('ChatGPT');
    expect(text).toContain('3 changes.');
    expect(text).not.toContain('Their delivery failed');

    const urgent = await (await visitor.request(`/w/${ws.workspaceId}/changes?severity=warning`)).text();
    expect(urgent).toContain('2 changes.');
    expect(urgent).not.toContain('blog.example replied');

    const overview = await (await visitor.request(`/w/${ws.workspaceId}`)).text();
    expect(overview).toMatch(/id="changes-badge"[^>]*><a href="\/w\/[^"]+\/changes\?from=\d{4}-\d{2}-\d{2}&amp;severity=critical"><strong>3 changes<\/strong> in the last 7 days<\/a>: 1 critical, 1 warning, 1 info\./);
  });
});
