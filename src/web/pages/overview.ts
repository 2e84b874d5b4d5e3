import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Overview area of the dashboard (see AREAS in ../areas.ts). */
export function overviewPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
