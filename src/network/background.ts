import type { AreaBackground } from '../jobs/background.js';
import { linkNetworkMatchJob, queueNetworkMatches } from './matching.js';

/** The network area's jobs and sweeps (see src/jobs/background.ts). */
export const NETWORK_BACKGROUND: AreaBackground = {
  jobs: { link_network_match: linkNetworkMatchJob },
  sweeps: ({ db, clock }) => [
    { name: 'link-network-match', everyMs: 86_400_000, run: () => queueNetworkMatches(db, clock) },
  ],
};
