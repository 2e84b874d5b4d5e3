import express, { type RequestHandler } from 'express';
import type { DashboardDeps } from '../pageContext.js';
import { backlinksPage } from './growth/backlinks.js';
import { networkPage } from './growth/network.js';
import { addProspect, draftPage, outreachPage, threadPage } from './growth/outreach.js';
import { repurposePage, saveDraftEdit } from './growth/repurpose.js';
import { socialPage } from './growth/social.js';

/**
 * The Growth area of the dashboard (see AREAS in ../areas.ts). Three forms post to routes of their own rather than the
 * generic action route: a prospect from plain fields, an outreach draft shown for editing, and a repurpose draft's
 * parts (the action route reads a textarea as one list item per line, and a post's parts keep their line breaks).
 */
export function growthPages(deps: DashboardDeps, stack: RequestHandler[]): express.Router {
  const router = express.Router();
  router.get('/w/:ws/growth', ...stack, (req, res) => backlinksPage(deps, req, res));
  router.get('/w/:ws/growth/outreach', ...stack, (req, res) => outreachPage(deps, req, res));
  router.post('/w/:ws/growth/outreach/add', ...stack, (req, res) => addProspect(deps, req, res));
  router.post('/w/:ws/growth/outreach/draft', ...stack, (req, res) => draftPage(deps, req, res));
  router.get('/w/:ws/growth/outreach/thread', ...stack, (req, res) => threadPage(deps, req, res));
  router.get('/w/:ws/growth/network', ...stack, (req, res) => networkPage(deps, req, res));
  router.get('/w/:ws/growth/social', ...stack, (req, res) => socialPage(deps, req, res));
  router.get('/w/:ws/growth/repurpose', ...stack, (req, res) => repurposePage(deps, req, res));
  router.post('/w/:ws/growth/repurpose/edit', ...stack, (req, res) => saveDraftEdit(deps, req, res));
  return router;
}
