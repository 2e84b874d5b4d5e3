import type { JobHandler } from '../../jobs/worker.js';

// PLACEHOLDER (being written in this session): webhook delivery and the render check.
export const deliverJob: JobHandler = {
  run: async () => {
    throw new Error('deliver is not written yet');
  },
};
export const renderCheckJob: JobHandler = {
  run: async () => {
    throw new Error('render_check is not written yet');
  },
};
