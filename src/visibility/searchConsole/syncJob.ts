import type { JobHandler } from '../../jobs/worker.js';

// PLACEHOLDER (being written in this session): Search Analytics sync.
export const searchConsoleSyncJob: JobHandler = {
  run: async () => {
    throw new Error('search_console_sync is not written yet');
  },
};
