import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { toIso } from '../shared/time.js';
import { freeSlots, horizonEnd, loadCalendar, monthKey, monthStart } from './calendar.js';

/** The plan's monthly allowance against what is booked, for the current and the next UTC calendar month. */
export async function planningCapacity(db: Kysely<Database>, workspaceId: string, now: number) {
  const calendar = await loadCalendar(db, workspaceId, now);
  const slots = freeSlots(calendar);
  const { rules } = calendar;
  const months = [monthStart(now), monthStart(now, 1)].map((start) => {
    const month = monthKey(start);
    const used = calendar.perMonth.get(month) ?? 0;
    return {
      month,
      allowance: rules.monthlyAllowance,
      used,
      remaining: Math.max(0, rules.monthlyAllowance - used),
      openSlots: slots.filter((slot) => monthKey(slot) === month).length,
    };
  });
  return {
    months,
    nextFreeSlot: toIso(slots[0] ?? null),
    horizonEnd: toIso(horizonEnd(now)),
    schedule: { publishDays: rules.publishDays, publishTime: rules.publishTime, slotsPerDay: rules.slotsPerDay, flexibleScheduling: rules.flexibleScheduling },
  };
}
