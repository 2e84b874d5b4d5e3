import { expect } from 'vitest';
import type { TestService, TestWorkspace } from '../support/harness.js';

export const DAY = 86_400_000;
export const iso = (ms: number): string => new Date(ms).toISOString();
export const at = (text: string): number => Date.parse(text);

/** A successful call's data; any other answer fails the test with its body. */
export async function ok<T = Record<string, unknown>>(t: TestService, ws: TestWorkspace, method: 'GET' | 'POST', path: string, input?: Record<string, unknown>): Promise<T> {
  const answer = await t.rest(ws.key, method, path, input);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as T;
}

export interface Planned {
  contentId: string;
  title: string;
  keyword: string;
  scheduledAt: string;
  queryId: string | null;
}

export interface Committed {
  created: number;
  planned: Planned[];
  notPlanned: Array<{ title: string; keyword: string; reason: string }>;
}

/** Commits titles "<prefix> 1".."<prefix> n" with keywords "<prefix> keyword i". */
export function commit(t: TestService, ws: TestWorkspace, count: number, prefix = 'Article'): Promise<Committed> {
  const titles = Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i + 1}`, keyword: `${prefix.toLowerCase()} keyword ${i + 1}` }));
  return ok<Committed>(t, ws, 'POST', '/api/v1/content/plan/commit', { titles });
}

export function article(t: TestService, id: string) {
  return t.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Gives an article a body as the write job leaves it: a draft. */
export async function markWritten(t: TestService, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  await t.db
    .updateTable('articles')
    .set({ status: 'draft', markdown: '# Title\n\nA short answer first.\n\n## One\n\nText.', word_count: 9, written_at: t.clock.now(), ...extra })
    .where('id', '=', id)
    .execute();
}
