import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Visibility area of the dashboard (see AREAS in ../areas.ts). */
export function visibilityPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
