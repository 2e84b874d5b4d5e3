import { html, type SafeHtml } from './html.js';

const numberFormats = new Map<number, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A number as every page writes it: grouped thousands, at most `digits` decimals; a dash for none. */
export function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  let format = numberFormats.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format.format(value);
}

/** A share given as 0–100 (the API's percentages) or, with `fraction`, as 0–1. */
export function formatPercent(value: number | null | undefined, options: { fraction?: boolean; digits?: number } = {}): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${formatNumber(options.fraction === true ? value * 100 : value, options.digits ?? 1)}%`;
}

function dateFormat(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

function instant(value: number | string | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * A time as every page shows it: in the workspace's time zone, to the minute, the exact ISO time on hover and in
 * the `datetime` attribute; a dash for none. A plain date (YYYY-MM-DD) stays a date: it names a day, not an instant.
 */
export function formatTime(value: number | string | Date | null | undefined, timeZone: string): SafeHtml {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value);
  const date = instant(value);
  if (date === undefined) return html`—`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}" title="${iso}">${dateFormat(timeZone, true).format(date)}</time>`;
}

/** A calendar day (YYYY-MM-DD), written the same way as the date part of `formatTime`. */
export function formatDay(day: string | null | undefined): SafeHtml {
  if (day === null || day === undefined || day === '') return html`—`;
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return html`${day}`;
  return html`<time datetime="${day}" title="${day}">${dateFormat('UTC', false).format(date)}</time>`;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(value: number | Date, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  return parts;
}


const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** How far a time zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(new Date(instantMs))
      .map((part) => [part.type, Number(part.value)]),
  );
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - Math.floor(instantMs / 1000) * 1000;
}

/**
 * A browser's `datetime-local` value (a wall-clock time without a zone) read in the workspace's time zone, as an ISO
 * instant; undefined when the value is not one. A wall time a clock change skips or repeats takes the offset before it.
 */
export function wallTimeToIso(value: string, timeZone: string): string | undefined {
  const match = WALL_TIME.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  const instant = asUtc - zoneOffsetMs(first, timeZone);
  return new Date(instant).toISOString();
}

/** An instant as a `datetime-local` input's value in the workspace's time zone, so a form starts at the stored time. */
export function wallTimeValue(value: number | string, timeZone: string): string {
  const instant = new Date(value).getTime();
  return new Date(instant + zoneOffsetMs(instant, timeZone)).toISOString().slice(0, 16);
}
