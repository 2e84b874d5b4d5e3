import { inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { approvalUrl } from '../src/approvals/approvals.js';
import { ServiceError, toServiceError } from '../src/errors.js';
import { answerResult, errorResult } from '../src/mcp/toolResults.js';
import type { OAuthIssuer } from '../src/oauth/issuer.js';
import type { Pipeline } from '../src/pipeline/pipeline.js';
import type { Principal } from '../src/auth/principal.js';
import { approvalAnswer } from '../tools/define.js';
import { isPlainObject } from '../src/shared/objects.js';

// A change that waits for the workspace owner, asked inside the call (2026-07-28 multi-round-trip requests): a client
// that can bring its person to a URL gets an input-required result pointing at the approval page in the product, and
// its retry finishes the call with the approval's outcome. Only an owner decides, and only on that page; other
// clients, and REST and the CLI, get the approval_required answer as before.

const APPROVAL_INPUT = 'approval';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

type ApprovalAnswer = ReturnType<typeof approvalAnswer.parse>;

/** Whether this request's client declared URL-mode elicitation: it can open a page for its person. */
export function opensUrls(ctx: ServerContext): boolean {
  const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
  const capabilities = envelope[CLIENT_CAPABILITIES];
  return isPlainObject(capabilities) && isPlainObject(capabilities.elicitation) && isPlainObject(capabilities.elicitation.url);
}

/** The approval a tool answered with, if it did. */
export function approvalOf(result: unknown): ApprovalAnswer | undefined {
  if (!isPlainObject(result) || result.isError === true) return undefined;
  const parsed = approvalAnswer.safeParse(result.structuredContent);
  return parsed.success ? parsed.data : undefined;
}

export class ApprovalQuestions {
  constructor(
    private readonly pipeline: Pipeline,
    private readonly issuer: OAuthIssuer,
  ) {}

  /**
   * Sends the person to the approval page. The request state names the approval, signed (any instance verifies it)
   * and bound to this tool and this credential, and lives as long as the approval can still be decided.
   */
  async ask(principal: Principal, operationId: string, approval: ApprovalAnswer): Promise<InputRequiredResult> {
    const requestState = await this.issuer.mintRequestState({ operationId, credentialId: principal.credentialId, approvalId: approval.approvalId }, Date.parse(approval.expiresAt));
    const message = `This change waits for a workspace owner to approve it in Sightline: ${approval.summary}`;
    return inputRequired({ inputRequests: { [APPROVAL_INPUT]: inputRequired.elicitUrl({ message, url: approval.approvalUrl }) }, requestState });
  }

  /**
   * The retry after the person was asked: the approval's outcome once decided, the same question while it waits for
   * the owner, and the approval_required answer when the person would not go to the page or the change is running.
   */
  async resume(principal: Principal, operationId: string, state: string, responses: Record<string, unknown> | undefined): Promise<CallToolResult | InputRequiredResult> {
    const claims = await this.issuer.openRequestState(state);
    if (claims === undefined || claims.operationId !== operationId || claims.credentialId !== principal.credentialId) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState: not one this server gave for this call and caller');
    }
    let approval;
    try {
      approval = await this.pipeline.readApproval(principal, claims.approvalId);
    } catch (error) {
      return errorResult(toServiceError(error));
    }
    const pending: ApprovalAnswer = {
      approval_required: true,
      approvalId: approval.approvalId,
      approvalUrl: approvalUrl(this.issuer.issuer, approval.approvalId),
      summary: approval.summary,
      expiresAt: approval.expiresAt!,
    };
    const reply = inputResponse(responses, APPROVAL_INPUT);
    const wentToPage = reply.kind === 'elicit' && reply.action === 'accept';
    switch (approval.state) {
      case 'pending':
        return wentToPage ? this.ask(principal, operationId, pending) : answerResult(pending);
      case 'running':
        return answerResult(pending);
      case 'done':
        return answerResult(approval.result ?? {});
      case 'failed':
        return errorResult(new ServiceError(500, `the approved change failed: ${approval.error ?? 'no reason was recorded'}`));
      case 'declined':
        return errorResult(new ServiceError(403, 'a workspace owner declined this change'));
      case 'expired':
        return errorResult(new ServiceError(403, 'no owner decided within 7 days: the approval expired and the change was not made'));
    }
  }
}
