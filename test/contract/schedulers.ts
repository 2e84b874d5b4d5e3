import { FakePostiz } from '../integrations/fakes/postiz.js';
import { connectScheduler, insertRepurposeDraft } from '../repurpose/support.js';
import type { TestService, TestWorkspace } from '../support/harness.js';

/**
 * One local Postiz per contract test file: the repurpose operations' fixtures connect workspaces to it, each with a
 * key of its own, so that Postiz's 30 calls an hour never run out across the many calls of the contract tests.
 */
let fake: FakePostiz | undefined;

async function started(): Promise<FakePostiz> {
  fake ??= await FakePostiz.start();
  return fake;
}

/** The workspace connected to the local Postiz. */
export async function connectPostiz(t: TestService, ws: TestWorkspace): Promise<void> {
  const postiz = await started();
  await connectScheduler(t, t.service.services.credentials, ws.workspaceId, 'postiz', postiz.baseUrl, `${FakePostiz.KEY}-${ws.workspaceId}`);
}

/** A LinkedIn draft of a published article, in a workspace connected to the local Postiz (whose LinkedIn page is int-li). */
export async function pushableDraft(t: TestService, ws: TestWorkspace): Promise<string> {
  await connectPostiz(t, ws);
  return insertRepurposeDraft(t, ws.workspaceId);
}

export async function closePostiz(): Promise<void> {
  await fake?.close();
  fake = undefined;
}
