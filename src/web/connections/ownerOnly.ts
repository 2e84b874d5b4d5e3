import type { Request, Response } from 'express';
import type { Membership } from '../../accounts/sessions.js';
import { sendPage } from '../pageContext.js';
import { html } from '../html.js';

/**
 * What the pages that connect an outside service to a workspace share: the page a failed connection shows, and the
 * check that the workspace is one of the visitor's (else 404) and that the visitor owns it (else 403).
 */
export function ownerConnectionPages(options: { title: string; service: string; errorId?: string }) {
  const fail = (res: Response, status: number, message: string, workspaceId?: string) =>
    sendPage(
      res,
      status,
      options.title,
      res.locals.visit!,
      html`<p class="notice error" role="alert"${options.errorId === undefined ? '' : html` id="${options.errorId}"`}>${message}</p>${workspaceId === undefined ? '' : html`<p><a href="/w/${workspaceId}/settings">Back to Settings</a></p>`}`,
    );

  const ownedWorkspace = (req: Request, res: Response): Membership | undefined => {
    const membership = res.locals.visit!.workspaces.find((w) => w.workspaceId === req.params.ws);
    if (membership === undefined) fail(res, 404, 'There is no such workspace among yours.');
    else if (membership.role !== 'owner') fail(res, 403, `Only an owner of this workspace can connect or disconnect ${options.service}.`, membership.workspaceId);
    else return membership;
    return undefined;
  };

  return { fail, ownedWorkspace };
}
