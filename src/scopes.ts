import { commaList } from './shared/commaList.js';

/** The specification's scopes, with what each grants (shown on consent screens and in docs). */
export const SCOPES = {
  'read:citations': 'visibility scores, trends, citation checks, sentiment, sources',
  'read:content': 'content pages, ideas, backlinks, social threads, brand data',
  'read:leads': 'captured leads',
  'read:analytics': 'traffic, engagement, reports, jobs, crawler access',
  'write:content': 'plan, generate, archive, ideas, outreach drafts, brand writes, support',
  'write:queries': 'tracked-query management',
  'write:publish': 'publishing to the connected CMS',
  'write:backlinks': 'outreach status, link-network membership and placements',
  'write:social': 'repurpose generation and pushes, social thread actions',
  'manage:org': 'article policy, team management',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/** Parses `all` or a comma list; throws on an unknown scope so a typo never yields a weaker key silently. */
export function parseScopeList(value: string): Scope[] {
  if (value.trim() === 'all') return [...ALL_SCOPES];
  const scopes = commaList(value);
  if (scopes.length === 0) throw new Error('scopes: give "all" or a comma-separated list');
  for (const scope of scopes) {
    if (!isScope(scope)) throw new Error(`scopes: unknown scope "${scope}"; known: ${ALL_SCOPES.join(', ')}`);
  }
  return [...new Set(scopes as Scope[])];
}
