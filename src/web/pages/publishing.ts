import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../dashboard.js';

/** The Publishing area of the dashboard (see AREAS in ../areas.ts). */
export function publishingPages(_deps: DashboardDeps, _stack: RequestHandler[]): express.Router {
  return express.Router();
}
