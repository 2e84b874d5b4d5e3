import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Brand area of the dashboard (see AREAS in ../areas.ts). */
export function brandPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
