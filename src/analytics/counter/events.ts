import { z } from 'zod';
import { describeIssues } from '../../shared/issues.js';
import { classifyVisitSource, type VisitClassification } from '../referrers.js';

/** The largest body the collect endpoint reads; a lead with 30 fields of 1,000 characters does not fit, nor should it. */
export const COLLECT_BODY_LIMIT = '8kb';
/** Visible time above this in one report is a tab left open, not reading: it is cut to this. */
export const MAX_ENGAGED_MS = 30 * 60_000;
const MAX_LEAD_FIELDS = 30;
/** Field names the loader never reads; the endpoint drops them too, in case another script posts here. */
const SENSITIVE_FIELD = /pass|card|cc-|cvc|cvv|iban|ssn|secret|token/i;

const pageUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an absolute http(s) URL');

/** What the loader posts (short keys keep the loader small): site, type, page URL, and per type its own fields. */
export const collectBody = z.discriminatedUnion('t', [
  z.strictObject({ s: z.string().min(1).max(64), t: z.literal('pageview'), u: pageUrl, r: z.string().max(2048).optional() }),
  z.strictObject({
    s: z.string().min(1).max(64),
    t: z.literal('engagement'),
    u: pageUrl,
    e: z.number().int().min(0).max(86_400_000),
    v: z.union([z.literal(0), z.literal(1)]),
  }),
  z.strictObject({
    s: z.string().min(1).max(64),
    t: z.literal('lead'),
    u: pageUrl,
    f: z
      .record(z.string().min(1).max(64), z.string().max(1000))
      .refine((fields) => Object.keys(fields).length <= MAX_LEAD_FIELDS, `must have at most ${MAX_LEAD_FIELDS} fields`),
    i: z.string().max(200).optional(),
  }),
]);

export type CollectBody = z.infer<typeof collectBody>;
const eventType = z.looseObject({ t: z.enum(['pageview', 'engagement', 'lead']) });

export interface Lead {
  form: string | null;
  email: string | null;
  name: string | null;
  /** The other fields, sensitive ones dropped. */
  fields: Record<string, string>;
}

/** One accepted event, ready for the batch writer. */
export interface CounterEvent {
  workspaceId: string;
  /** The day's visitor hash. */
  visitor: string;
  at: number;
  type: CollectBody['t'];
  path: string;
  url: string;
  /** Page views: where the visitor came from (the referrer and the page's utm_ tags). */
  arrival: VisitClassification & { utmSource: string | null; utmMedium: string | null; utmCampaign: string | null };
  /** Engagement: visible time, and whether this is the page view's first report. */
  engagedMs: number;
  firstReport: boolean;
  lead: Lead | null;
}

/** Parses a body the loader posted; a BadBody names the field and the rule. */
export class BadBody extends Error {}

export function parseCollectBody(text: string): CollectBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadBody('body: is not valid JSON');
  }
  const parsed = collectBody.safeParse(json, { reportInput: true });
  if (parsed.success) return parsed.data;
  // A refusal checks the type first, so that an unknown one reads "t: must be one of …" rather than a union's generic
  // refusal; a good body (every page view) is parsed once.
  const typed = eventType.safeParse(json);
  if (!typed.success) throw new BadBody(describeIssues(typed.error.issues));
  throw new BadBody(describeIssues(parsed.error.issues));
}

/** The path the figures count under: no query or fragment, no trailing slash but the root's, at most 512 characters. */
export function countedPath(url: URL): string {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') || '/' : '/';
  return path.slice(0, 512);
}

/** Host without `www.`, lower case: a page of www.example.com belongs to example.com's site and the reverse. */
export function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Email and name pulled out of a submitted form, the rest kept as fields. */
export function readLead(fields: Record<string, string>, form: string | undefined): Lead {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (!SENSITIVE_FIELD.test(key) && value.trim() !== '') kept[key] = value.trim();
  const emailKey = Object.keys(kept).find((key) => /mail/i.test(key) && EMAIL.test(kept[key]!)) ?? Object.keys(kept).find((key) => EMAIL.test(kept[key]!));
  const email = emailKey === undefined ? null : kept[emailKey]!.toLowerCase();
  if (emailKey !== undefined) delete kept[emailKey];
  const nameKey = Object.keys(kept).find((key) => /^(full[-_ ]?)?name$/i.test(key));
  const first = Object.keys(kept).find((key) => /^first[-_ ]?name$/i.test(key));
  const last = Object.keys(kept).find((key) => /^(last|family)[-_ ]?name$/i.test(key));
  let name: string | null = null;
  if (nameKey !== undefined) {
    name = kept[nameKey]!;
    delete kept[nameKey];
  } else if (first !== undefined || last !== undefined) {
    name = [first, last].map((key) => (key === undefined ? '' : kept[key]!)).join(' ').trim();
    for (const key of [first, last]) if (key !== undefined) delete kept[key];
  }
  return { form: form?.trim() || null, email, name, fields: kept };
}

/** Where a page view came from: the referrer and the page URL's utm_ tags, classified against the maintained lists. */
export function readArrival(url: URL, referrer: string | undefined, siteHost: string): CounterEvent['arrival'] {
  const tag = (name: string) => url.searchParams.get(name)?.trim().slice(0, 200) || null;
  const utmSource = tag('utm_source');
  const utmMedium = tag('utm_medium');
  const classification = classifyVisitSource({ referrer: referrer ?? null, utmSource, utmMedium, siteHost });
  return { ...classification, utmSource, utmMedium, utmCampaign: tag('utm_campaign') };
}
