import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { LimiterStore } from '../limits/store.js';
import { decideDevice, findPendingDevice, type PendingDevice } from '../oauth/device.js';
import { sendPage } from './pageContext.js';
import { html } from './html.js';
import { anyGrantable, chosenGrant, grantFields, offeredScopes } from './grantForm.js';
import { csrfField } from './layout.js';

const WRONG_CODES_PER_USER = 10;
const WRONG_CODE_WINDOW_SECONDS = 15 * 60;

/** The device-login verification page: enter the code the CLI shows, see who asks for what, approve or deny. */
export function devicePages(deps: { db: Kysely<Database>; clock: Clock; limiterStore: LimiterStore }, signedIn: RequestHandler[]): express.Router {
  const { db, clock } = deps;
  const router = express.Router();
  const wrongCodes = deps.limiterStore.limiter({ prefix: 'device-code', points: WRONG_CODES_PER_USER, durationSeconds: WRONG_CODE_WINDOW_SECONDS });

  const entryForm = (res: Response, status: number, problem?: string, code = '') => {
    const visit = res.locals.visit!;
    sendPage(
      res,
      status,
      'Connect a device',
      visit,
      html`${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
<form method="get" action="/device">
  <label>The code your command line shows <input type="text" name="user_code" value="${code}" autocomplete="off" required></label>
  <button type="submit">Continue</button>
</form>`,
    );
  };

  const consentForm = (res: Response, device: PendingDevice, status = 200, problem?: string) => {
    const visit = res.locals.visit!;
    const offered = offeredScopes(device.scopes);
    const grantable = anyGrantable(visit.workspaces, offered);
    sendPage(
      res,
      status,
      'Connect a device',
      visit,
      html`<p><strong>${device.clientId}</strong> asks for an API key (code <code>${device.userCode}</code>). Approve only if you started this login.</p>
${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
${grantable ? '' : html`<p class="notice error" role="alert">None of the permissions it asks for is yours to grant: only an owner can. Deny, and start the login again with fewer scopes.</p>`}
<form method="post" action="/device">
  ${csrfField(visit.csrf)}
  <input type="hidden" name="user_code" value="${device.userCode}">
  ${grantFields(visit.workspaces, offered, { workspace: 'Workspace', scopes: 'What the key may do' })}
  ${grantable ? html`<button type="submit" name="decision" value="approve">Approve</button>` : ''}
  <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</form>`,
    );
  };

  async function lookUp(res: Response, code: string): Promise<PendingDevice | undefined> {
    const userId = res.locals.visit!.user.userId;
    if (!(await wrongCodes.peek(userId)).allowed) {
      entryForm(res, 429, 'Too many wrong codes. Wait a few minutes and start the login again.');
      return undefined;
    }
    const device = await findPendingDevice(db, clock, code);
    if (device === undefined) {
      await wrongCodes.consume(userId);
      entryForm(res, 400, 'That code is not valid or has expired. Check it, or start the login again.', code);
    }
    return device;
  }

  router.get('/device', ...signedIn, async (req: Request, res: Response) => {
    const code = typeof req.query.user_code === 'string' ? req.query.user_code : undefined;
    if (code === undefined) {
      entryForm(res, 200);
      return;
    }
    const device = await lookUp(res, code);
    if (device !== undefined) consentForm(res, device);
  });

  router.post('/device', ...signedIn, async (req: Request, res: Response) => {
    const body = req.body as Record<string, unknown>;
    const visit = res.locals.visit!;
    const device = await lookUp(res, typeof body.user_code === 'string' ? body.user_code : '');
    if (device === undefined) return;
    if (body.decision !== 'approve') {
      await decideDevice(db, clock, { userCode: device.userCode, approve: false, userId: visit.user.userId });
      sendPage(res, 200, 'Login denied', visit, html`<p>The device login was denied; the command line gets no key.</p>`);
      return;
    }
    const chosen = chosenGrant(body, visit.workspaces, offeredScopes(device.scopes));
    if (!chosen.ok) {
      consentForm(res, device, 400, chosen.problem);
      return;
    }
    await decideDevice(db, clock, { userCode: device.userCode, approve: true, userId: visit.user.userId, workspaceId: chosen.workspace.workspaceId, scopes: chosen.scopes });
    sendPage(res, 200, 'Device connected', visit, html`<p>Approved. Go back to your command line: it receives its key for <strong>${chosen.workspace.name}</strong> on its next poll.</p>`);
  });

  return router;
}
