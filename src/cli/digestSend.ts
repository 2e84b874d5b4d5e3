import { pino } from 'pino';
import { createServices } from '../buildOutsideServices.js';
import { weekOfDate } from '../changes/digest/week.js';
import { operatorTargets, sendDigestsNow, type OperatorSend } from '../changes/digest/send.js';
import { systemClock } from '../clock.js';
import { openLimiterStore } from '../limits/open.js';
import { OperatorError, operatorConfig } from '../operator.js';
import { workspaceExists } from '../workspace/workspaces.js';
import { withDatabase } from './common.js';

/** Sends the week's digest from this process through the operator's SMTP server, as the service would. */
export async function sendDigestCommand(options: { week: string; workspace?: string; due?: boolean; force?: boolean }): Promise<OperatorSend[]> {
  if ((options.workspace === undefined) === (options.due !== true)) throw new OperatorError('give --workspace <id> or --due, one of them');
  const config = operatorConfig();
  return withDatabase(async (database) => {
    const { db } = database;
    if (options.workspace !== undefined && !(await workspaceExists(db, options.workspace))) throw new OperatorError(`workspace ${options.workspace} does not exist`);
    // Warnings (a writer that failed) go to stderr: stdout carries the result alone.
    const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
    const limiterStore = await openLimiterStore({ redisUrl: config.redisUrl, database, onProblem: (message, error) => logger.error({ err: error }, message) });
    const providers = createServices(config, limiterStore, { db, clock: systemClock });
    try {
      const { services } = providers;
      const mailer = services.notificationMail;
      if (mailer === undefined) throw new OperatorError('no mail server to send through: set SMTP_URL (or SMTP_HOST with SMTP_PORT, SMTP_USER, SMTP_PASSWORD, SMTP_SECURE) and MAIL_FROM');
      const week = weekOfDate(options.week);
      const now = systemClock.now();
      if (week.from > now) throw new OperatorError(`week: ${options.week} is in a week that has not begun`);
      const targets = await operatorTargets(db, now, options.workspace !== undefined ? { workspaceId: options.workspace } : { due: true }, week);
      return await sendDigestsNow({ db, clock: systemClock, services, logger, publicUrl: config.publicUrl }, mailer, targets, week, options.force === true);
    } finally {
      await providers.close();
      await limiterStore.close();
    }
  });
}
