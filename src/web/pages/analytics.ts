import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Analytics area of the dashboard (see AREAS in ../areas.ts). */
export function analyticsPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
