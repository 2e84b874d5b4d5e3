import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { BadInputError } from '../errors.js';
import { toIso } from '../shared/time.js';
import { counted } from '../team/seats.js';
import { lockWorkspace } from '../workspace/workspaces.js';
import { findArticle } from './articles.js';
import { dayStart, loadCalendar, monthKey } from './calendar.js';

/**
 * Moves a planned article to another time, any day of the week. Only with flexible scheduling; the target day keeps to
 * the policy's articles a day and the target month to the plan's allowance, counting every other article.
 */
export async function rescheduleContent(db: Kysely<Database>, clock: Clock, workspaceId: string, contentId: string, scheduledAt: string) {
  await lockWorkspace(db, workspaceId);
  const article = await findArticle(db, workspaceId, contentId);
  if (article.status !== 'planned') throw BadInputError.field('contentId', `only planned articles can be moved; this one is ${article.status}`);
  const now = clock.now();
  const { rules, perDay, perMonth, end } = await loadCalendar(db, workspaceId, now, article.id);
  if (!rules.flexibleScheduling) {
    throw BadInputError.field('scheduledAt', 'planned articles can be moved by hand only when flexibleScheduling is on in the brand profile (update_brand_profile)');
  }
  const target = Date.parse(scheduledAt);
  if (target <= now) throw BadInputError.field('scheduledAt', `must be in the future (now is ${toIso(now)})`);
  if (target >= end) throw BadInputError.field('scheduledAt', `must be before ${toIso(end)}: the calendar reaches to the end of next month`);
  const sameDay = perDay.get(dayStart(target)) ?? 0;
  if (sameDay >= rules.slotsPerDay) {
    throw BadInputError.field(
      'scheduledAt',
      `${toIso(target)!.slice(0, 10)} already has ${counted(sameDay, 'article')} and the policy allows ${rules.slotsPerDay} a day (articlesPerDay, 1 to 5 with flexible scheduling)`,
    );
  }
  const sameMonth = perMonth.get(monthKey(target)) ?? 0;
  if (sameMonth >= rules.monthlyAllowance) {
    throw BadInputError.field('scheduledAt', `${monthKey(target)} already has ${counted(sameMonth, 'article')}, the plan's monthly allowance of ${rules.monthlyAllowance}`);
  }
  await db.updateTable('articles').set({ scheduled_at: target, updated_at: now }).where('id', '=', article.id).execute();
  return { contentId: article.id, title: article.title, previousScheduledAt: toIso(article.scheduled_at), scheduledAt: toIso(target) };
}
