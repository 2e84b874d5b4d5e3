import type { JobHandler } from '../../jobs/worker.js';

// PLACEHOLDER (being written in this session): writes a planned article with the writer model.
export const writeArticleJob: JobHandler = {
  run: async () => {
    throw new Error('write_article is not written yet');
  },
};
