import { declareProvider, httpUrl, readValue, type Environment } from '../kit/declaration.js';
import type { SchedulerConstructor } from '../../repurpose/schedulers/constructor.js';
import { BufferScheduler } from './scheduler.js';

/** Buffer's API: each workspace connects its own account with its own key, so only the address is the operator's. */
export const BUFFER = declareProvider({
  id: 'buffer',
  family: 'scheduler',
  label: 'Buffer',
  turnedOnBy: [],
  settings: [
    {
      names: ['BUFFER_BASE_URL'],
      default: '`https://api.buffer.com`',
      meaning: "Buffer's API, which repurposed posts are pushed to (see [Scheduling tools](social.md)); each workspace connects its own account with its own key. https only (it goes through the outbound guard)",
    },
  ],
  create: ((account, deps) => new BufferScheduler(account, deps.outbound, deps.clock)) satisfies SchedulerConstructor,
  read(env: Environment): string {
    return readValue(env, 'BUFFER_BASE_URL', httpUrl, 'https://api.buffer.com');
  },
});
