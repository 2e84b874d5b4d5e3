import type { JobHandler } from '../../jobs/worker.js';

// PLACEHOLDER (being written in this session): one engine question, and one rank check.
export const engineCheckJob: JobHandler = {
  run: async () => {
    throw new Error('engine_check is not written yet');
  },
};
export const rankCheckJob: JobHandler = {
  run: async () => {
    throw new Error('rank_check is not written yet');
  },
};
