import { type Article, type ChangeEvent, type DeliveryEvent, EVENT_NAMES, type EventName, type SightlineChange } from './types.js';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Where a value breaks the shape, or undefined when it fits. */
type Check = (value: unknown) => string | undefined;

/** `faq` + `[0].answer is missing` reads `faq[0].answer is missing`; `status` + `is not …` keeps its space. */
const within = (path: string, problem: string) => (problem.startsWith('.') || problem.startsWith('[') ? `${path}${problem}` : `${path} ${problem}`);

const string: Check = (value) => (isString(value) ? undefined : 'is not a string');
const number: Check = (value) => (isNumber(value) ? undefined : 'is not a number');
const arrayOf =
  (item: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return 'is not an array';
    for (const [index, entry] of value.entries()) {
      const problem = item(entry);
      if (problem !== undefined) return within(`[${index}]`, problem);
    }
    return undefined;
  };
const object =
  (required: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (value) => {
    if (!isObject(value)) return 'is not an object';
    for (const [field, check] of Object.entries(required)) {
      if (value[field] === undefined) return `.${field} is missing`;
      const problem = check(value[field]);
      if (problem !== undefined) return within(`.${field}`, problem);
    }
    for (const [field, check] of Object.entries(optional)) {
      const problem = value[field] === undefined ? undefined : check(value[field]);
      if (problem !== undefined) return within(`.${field}`, problem);
    }
    return undefined;
  };

// The specification's article object. Fields it does not list are kept as they came: Sightline may add fields.
const article = object(
  { id: string, title: string, slug: string, html: string, publishedAt: number, status: (v) => (v === 'publish' || v === 'draft' ? undefined : 'is not publish or draft') },
  {
    markdown: string,
    metaTitle: string,
    metaDescription: string,
    keywords: arrayOf(string),
    featuredImageUrl: string,
    images: arrayOf(object({ url: string }, { altText: string, placement: string })),
    faq: arrayOf(object({ question: string, answer: string })),
    schemaJsonLd: string,
    canonicalUrl: string,
    language: string,
    author: object({ name: string }, { bio: string, linkedinUrl: string }),
    categoryName: string,
  },
);

/** The delivery body, checked against the specification's shape; a string saying what is wrong otherwise. */
export function parseDeliveryEvent(body: unknown): DeliveryEvent | string {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (!EVENT_NAMES.includes(body.event as EventName)) return `event ${JSON.stringify(body.event)} is not one of ${EVENT_NAMES.join(', ')}`;
  if (!isNumber(body.timestamp)) return 'timestamp is not a number';
  const problem = article(body.article);
  if (problem !== undefined) return within('article', problem);
  return { event: body.event as EventName, timestamp: body.timestamp, article: body.article as unknown as Article };
}

const nullable =
  (check: Check): Check =>
  (value) =>
    value === null ? undefined : check(value);

const change = object({
  id: string,
  kind: string,
  severity: (v) => (v === 'critical' || v === 'warning' || v === 'info' ? undefined : 'is not critical, warning or info'),
  title: string,
  detectedAt: string,
  engine: nullable(string),
  queryId: nullable(string),
  query: nullable(string),
  runId: nullable(string),
  details: (v) => (isObject(v) ? undefined : 'is not an object'),
});

/** A change event's body: an event named like a change kind (`citation.lost`), not an article event, and the change it names. */
export function parseChangeEvent(body: unknown): ChangeEvent | string {
  if (!isObject(body)) return 'the body is not a JSON object';
  if (!isString(body.event) || EVENT_NAMES.includes(body.event as EventName) || !/^[a-z]+\.[a-z_]+$/.test(body.event)) return `event ${JSON.stringify(body.event)} is not a change kind`;
  if (!isNumber(body.timestamp)) return 'timestamp is not a number';
  const problem = change(body.change);
  if (problem !== undefined) return within('change', problem);
  const parsed = body.change as unknown as SightlineChange;
  if (parsed.kind !== body.event) return `change.kind ${parsed.kind} is not the event ${body.event}`;
  return { event: body.event, timestamp: body.timestamp, change: parsed };
}
