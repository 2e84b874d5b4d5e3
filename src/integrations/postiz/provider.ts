import { declareProvider, httpUrl, readValue, type Environment } from '../kit/declaration.js';
import type { SchedulerConstructor } from '../../repurpose/schedulers/constructor.js';
import { PostizScheduler } from './scheduler.js';

/** Postiz's hosted API (a self-hosted Postiz is set per workspace on its page): each workspace connects its own account with its own key, so only the address is the operator's. */
export const POSTIZ = declareProvider({
  id: 'postiz',
  family: 'scheduler',
  label: 'Postiz',
  turnedOnBy: [],
  settings: [
    {
      names: ['POSTIZ_BASE_URL'],
      default: '`https://api.postiz.com/public/v1`',
      meaning: "Postiz's hosted API, which repurposed posts are pushed to (see [Scheduling tools](social.md)); each workspace connects its own account with its own key. A self-hosted Postiz is set per workspace on its page. https only (it goes through the outbound guard)",
    },
  ],
  create: ((account, deps) => new PostizScheduler(account, deps.outbound, deps.limits, deps.clock)) satisfies SchedulerConstructor,
  read(env: Environment): string {
    return readValue(env, 'POSTIZ_BASE_URL', httpUrl, 'https://api.postiz.com/public/v1');
  },
});
