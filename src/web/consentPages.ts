import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { AuthorizePageError, issueCode, OAuthRedirectError, parseAuthorizeRequest, type AuthorizeRequest } from '../oauth/authorization.js';
import type { OAuthIssuer } from '../oauth/issuer.js';
import { sendPage } from './pageContext.js';
import { html } from './html.js';
import { anyGrantable, chosenGrant, grantFields, offeredScopes } from './grantForm.js';
import { csrfField } from './layout.js';

const PASSED_ON = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'scope'] as const;

function redirectWith(res: Response, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  res.redirect(303, url.href);
}

/** Chrome applies form-action to the redirect that follows a form post, so the consent page allows the client's origin. */
function allowRedirectTarget(res: Response, redirectUri: string): void {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  const policy = String(res.getHeader('Content-Security-Policy')).replace("form-action 'self'", `form-action 'self' ${target}`);
  res.setHeader('Content-Security-Policy', policy);
}

/** The consent screen of the authorization endpoint: which client, where it returns, which workspace, which scopes. */
export function consentPages(deps: { db: Kysely<Database>; clock: Clock; issuer: OAuthIssuer }, signedIn: RequestHandler[]): express.Router {
  const { db, clock, issuer } = deps;
  const router = express.Router();

  async function authorize(req: Request, res: Response): Promise<void> {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    const visit = res.locals.visit!;
    let request: AuthorizeRequest;
    try {
      request = await parseAuthorizeRequest(issuer.clients, params, { resource: issuer.resource });
    } catch (error) {
      if (error instanceof AuthorizePageError) {
        sendPage(res, 400, 'Cannot connect this application', visit, html`<p class="notice error" role="alert">${error.message}</p>`);
        return;
      }
      if (error instanceof OAuthRedirectError) {
        redirectWith(res, error.redirectUri, { error: error.error, error_description: error.description, state: error.state, iss: issuer.issuer });
        return;
      }
      throw error;
    }
    const back = (extra: Record<string, string>) => redirectWith(res, request.redirectUri, { ...extra, state: request.state, iss: issuer.issuer });

    function consentForm(status: number, problem?: string): void {
      allowRedirectTarget(res, request.redirectUri);
      const destination = new URL(request.redirectUri);
      const offered = offeredScopes(request.scopes);
      const grantable = anyGrantable(visit.workspaces, offered);
      sendPage(
        res,
        status,
        `Connect ${request.client.clientName}`,
        visit,
        visit.workspaces.length === 0
          ? html`<p>You are not a member of any workspace, so there is nothing to connect.</p>`
          : html`<p><strong>${request.client.clientName}</strong> wants to act for you in Sightline. After you answer, you return to <code>${destination.protocol === 'http:' || destination.protocol === 'https:' ? destination.host : destination.protocol}</code>.</p>
${problem === undefined ? '' : html`<p class="notice error" role="alert">${problem}</p>`}
${grantable ? '' : html`<p class="notice error" role="alert">None of the permissions it asks for is yours to grant: only an owner can. Deny, and ask an owner to connect it.</p>`}
<form method="post" action="/oauth/authorize">
  ${csrfField(visit.csrf)}
  ${PASSED_ON.map((name) => (typeof params[name] === 'string' ? html`<input type="hidden" name="${name}" value="${params[name] as string}">` : ''))}
  ${grantFields(visit.workspaces, offered, { workspace: 'Workspace it may use', scopes: 'What it may do' })}
  ${grantable ? html`<button type="submit" name="decision" value="allow">Allow</button>` : ''}
  <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</form>`,
      );
    }

    if (req.method === 'POST') {
      const body = req.body as Record<string, unknown>;
      if (body.decision !== 'allow') {
        back({ error: 'access_denied', error_description: 'the user denied the request' });
        return;
      }
      const chosen = chosenGrant(body, visit.workspaces, offeredScopes(request.scopes));
      if (!chosen.ok) {
        consentForm(400, chosen.problem);
        return;
      }
      const code = await issueCode(db, clock, request, { userId: visit.user.userId, workspaceId: chosen.workspace.workspaceId, scopes: chosen.scopes });
      back({ code });
      return;
    }

    consentForm(200);
  }

  router.get('/oauth/authorize', ...signedIn, (req: Request, res: Response) => authorize(req, res));
  router.post('/oauth/authorize', ...signedIn, (req: Request, res: Response) => authorize(req, res));
  return router;
}
