import { z } from 'zod';

// Field schemas several operations share, so the same kind of field gets the same rule text everywhere.

/** An absolute URL whose scheme matches `protocol`; other problems (not a string) keep their usual rule text. */
export function webUrl(protocol: RegExp, rule: string) {
  return z.url({ protocol, error: (issue) => (issue.code === 'invalid_format' ? rule : undefined) });
}

const HTTP_URL_RULE = 'must be an absolute http(s) URL such as https://example.com/page';

export const httpUrl = () => webUrl(/^https?$/, HTTP_URL_RULE);

/**
 * A URL of one of `protocols` (`['https:']`), or an empty string that clears the stored one. Checked by a refinement
 * rather than `webUrl(…).or(z.literal(''))` because a union becomes anyOf in the JSON Schema, which some MCP hosts
 * mishandle.
 */
export function webUrlOrEmpty(protocols: readonly string[], rule: string) {
  return z
    .string()
    .trim()
    .refine((value) => value === '' || (URL.canParse(value) && protocols.includes(new URL(value).protocol)), `${rule}, or an empty string to clear it`);
}

/** An http(s) URL, or an empty string that clears the stored one. */
export const httpUrlOrEmpty = () => webUrlOrEmpty(['http:', 'https:'], HTTP_URL_RULE);

/** A list of short non-empty texts; surrounding spaces are trimmed before the limits apply. */
export function textList(maxItems: number, maxChars: number) {
  return z.array(z.string().trim().min(1).max(maxChars)).max(maxItems);
}

export const recordId = () => z.string().trim().min(1).max(100);

/** A paged list's page number and page size. */
export const pageNumber = () => z.number().int().min(1).max(100_000).default(1).describe('Page number.');
export const pageSize = (max: number, fallback: number, items: string) =>
  z.number().int().min(1).max(max).default(fallback).describe(`${items} per page.`);

/** What a paged answer says about its page, beside its rows. */
export const pageFields = {
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  nextPage: z.int().nullable().describe('null on the last page.'),
};

// Output fields: answers are not parsed, so these only document (a format, not a pattern that costs every reader).

/** A plan's limits (src/plans.ts), as get_billing and get_caller answer them. */
export const planLimits = z.object({ requestsPerMinute: z.int(), seats: z.int(), articlesPerMonth: z.int(), trackedQueries: z.int(), competitors: z.int() });

/** A UTC time as the service writes it: ISO 8601 with milliseconds and Z. */
export const isoTime = () => z.string().meta({ format: 'date-time' });
