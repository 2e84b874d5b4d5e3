import type { TestService, TestWorkspace } from '../support/harness.js';
import { Visitor } from '../support/visitor.js';

export interface FormVisitor {
  ws: TestWorkspace;
  visitor: Visitor;
  /** Posts a dashboard form to an operation, as the page at `back` would. */
  post(operationId: string, form: Record<string, string>, back?: string): Promise<Response>;
}

/** A new workspace and a person of `role` signed in to it, posting forms from the page at `path` under /w/:ws/. */
export async function signedInVisitor(t: TestService, role: 'owner' | 'member', path: string): Promise<FormVisitor> {
  const ws = await t.workspace();
  const email = `${role}-${ws.workspaceId}@acme.example`;
  await t.user(ws.workspaceId, email, role);
  const visitor = new Visitor(t.baseUrl);
  await visitor.signIn(email, 'correct horse battery');
  const page = `/w/${ws.workspaceId}/${path}`;
  const csrf = await visitor.csrf(page);
  const post = (operationId: string, form: Record<string, string>, back = page) =>
    visitor.request(`/w/${ws.workspaceId}/do/${operationId}`, { method: 'POST', form: { _csrf: csrf, back, ...form } });
  return { ws, visitor, post };
}
