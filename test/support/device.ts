import { expect } from 'vitest';
import type { TestWorkspace } from './harness.js';
import { hiddenFields, type Visitor } from './visitor.js';

/** The person at the device verification page: types the code (in lower case, without the dash), then answers. */
export async function decideDevice(visitor: Visitor, ws: TestWorkspace, userCode: string, decision: 'approve' | 'deny', grant: readonly string[] = ['read:content']): Promise<void> {
  const page = await visitor.request(`/device?user_code=${encodeURIComponent(userCode.replace('-', '').toLowerCase())}`);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({ ...hiddenFields(await page.text()), decision, workspace: ws.workspaceId });
  for (const scope of grant) form.append('grant', scope);
  const answer = await visitor.request('/device', { method: 'POST', form });
  expect(answer.status).toBe(200);
}
