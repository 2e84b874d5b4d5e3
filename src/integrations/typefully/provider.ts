import { declareProvider, httpUrl, readValue, type Environment } from '../kit/declaration.js';
import type { SchedulerConstructor } from '../../repurpose/schedulers/constructor.js';
import { TypefullyScheduler } from './scheduler.js';

/** Typefully's API: each workspace connects its own account with its own key, so only the address is the operator's. */
export const TYPEFULLY = declareProvider({
  id: 'typefully',
  family: 'scheduler',
  label: 'Typefully',
  turnedOnBy: [],
  settings: [
    {
      names: ['TYPEFULLY_BASE_URL'],
      default: '`https://api.typefully.com/v2`',
      meaning: "Typefully's API, which repurposed posts are pushed to (see [Scheduling tools](social.md)); each workspace connects its own account with its own key. https only (it goes through the outbound guard)",
    },
  ],
  create: ((account, deps) => new TypefullyScheduler(account, deps.outbound, deps.clock)) satisfies SchedulerConstructor,
  read(env: Environment): string {
    return readValue(env, 'TYPEFULLY_BASE_URL', httpUrl, 'https://api.typefully.com/v2');
  },
});
