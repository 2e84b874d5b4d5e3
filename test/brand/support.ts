import { expect } from 'vitest';
import type { readBrand } from '../../src/brand/readBrand.js';
import type { Answer, McpToolAnswer, TestService } from '../support/harness.js';

/** What GET /api/v1/brand answers, as the domain reader builds it (JSON keeps every field's shape). */
export type BrandData = Awaited<ReturnType<typeof readBrand>>;

export async function getBrand(t: TestService, key: string): Promise<BrandData> {
  const answer = await t.rest(key, 'GET', '/api/v1/brand');
  expect(answer.status).toBe(200);
  return answer.body.data as BrandData;
}

/** Calls a brand write over REST and expects a 200, returning its data. */
export async function write(t: TestService, key: string, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await t.rest(key, 'POST', path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A 400 whose message names `field` followed by `rule` (`field: rule`, possibly one of several `; `-joined parts). */
export function expectBadInput(answer: Answer, field: string, rule: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error).toMatch(new RegExp(`(^|; )${escape(field)}: ${escape(rule)}`));
}

export function expectMcpBadInput(answer: McpToolAnswer, field: string, rule: string): void {
  expect(answer.isError).toBe(true);
  expect(answer.structuredContent.status).toBe(400);
  expect(answer.structuredContent.error).toMatch(new RegExp(`(^|; )${escape(field)}: ${escape(rule)}`));
}

export const chars = (n: number, c = 'x'): string => c.repeat(n);
export const items = (n: number, make: (i: number) => unknown = (i) => `item ${i}`): unknown[] => Array.from({ length: n }, (_, i) => make(i));
