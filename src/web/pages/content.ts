import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Content area of the dashboard (see AREAS in ../areas.ts). */
export function contentPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
