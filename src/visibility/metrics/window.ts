import { z } from 'zod';
import { DAY_MS, isoDate, utcDay } from '../../shared/time.js';
import { ENGINE_NAMES, type EngineName } from '../engines/engine.js';

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

export function metricWindow(days: MetricDays, now: number): MetricWindow {
  const to = utcDay(now);
  const count = Number(days);
  return { days: count, from: to - (count - 1) * DAY_MS, to };
}

export function windowRecord(window: MetricWindow) {
  return { days: window.days, from: isoDate(window.from), to: isoDate(window.to) };
}
