import { z } from 'zod';
import { ENGINE_NAMES, type EngineName } from '../engines/engine.js';

export const DAY_MS = 86_400_000;
export const METRIC_DAYS = ['7', '30', '90'] as const;
export type MetricDays = (typeof METRIC_DAYS)[number];

/** The inputs every metric operation takes. `days` is a string enum, as the traffic overview's, so one JSON type serves query strings and MCP. */
export const metricInput = {
  days: z.enum(METRIC_DAYS).default('30').describe('The window in UTC days, today included.'),
  model: z.enum(ENGINE_NAMES as [EngineName, ...EngineName[]]).optional().describe('Only this answer engine (default: all).'),
};

export interface MetricWindow {
  days: number;
  /** UTC midnight of the first and of the last day (today). */
  from: number;
  to: number;
}

export const utcDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
export const isoDate = (day: number) => new Date(day).toISOString().slice(0, 10);

export function metricWindow(days: MetricDays, now: number): MetricWindow {
  const to = utcDay(now);
  const count = Number(days);
  return { days: count, from: to - (count - 1) * DAY_MS, to };
}

export function windowRecord(window: MetricWindow) {
  return { days: window.days, from: isoDate(window.from), to: isoDate(window.to) };
}
