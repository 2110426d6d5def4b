import { Command, Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { requestApproval, respondToApproval } from '../commands/approvals.ts';
import { approvalNotFound } from '../domain/approvals.ts';
import {
  Approval,
  ApprovalInput,
  ApprovalListQuery,
  ApprovalRow,
  RegisterParams,
  ResponseInput,
} from '../schemas/registers.ts';
import { approvalWithReviewers, listApprovals } from '../store/approvals.ts';
import { type Routes, route } from './deps.ts';

const tags = ['approvals'];

export const APPROVAL_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/approvals',
    action: 'RequestApproval',
    tags,
    summary: 'Request review of a stage gate, a decision, a budget or a variation',
    description:
      'Editors. stage_gate names its stage (no subject_id); decision and variation name subject_id, a record of ' +
      'the same project (404 decision_not_found / variation_not_found); budget names neither (else 422 ' +
      'validation_failed). A variation is reviewed only while submitted (409 variation_not_pending). Reviewers ' +
      'are stored by lowercased email, each once; at least one required (422 required_reviewer_missing). ' +
      'Publishes approval.requested.',
    body: Command(ApprovalInput),
    response: Envelope(Approval),
    status: 201,
    errors: [
      'project_not_found',
      'project_closed',
      'required_reviewer_missing',
      'decision_not_found',
      'variation_not_found',
      'variation_not_pending',
    ],
    run: (ctx, { body }) => requestApproval(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/approvals',
    action: 'ReadApprovals',
    tags,
    summary: 'Approvals newest first, of one project (project_id) or all; rows without reviewers',
    query: ApprovalListQuery,
    response: PageEnvelope(ApprovalRow),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const filter = {
        project_id: query.project_id,
        subject_type: query.subject_type as string | undefined,
        status: query.status as string | undefined,
      };
      const { items, total } = await listApprovals(deps.database.db, filter, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/approvals/:id',
    action: 'ReadApprovals',
    tags,
    summary: 'One approval with its reviewers and their answers',
    params: RegisterParams,
    response: Envelope(Approval),
    errors: ['approval_not_found'],
    handler: async ({ params, reply }, deps) => {
      const found = await approvalWithReviewers(deps.database.db, params.id);
      if (!found) throw approvalNotFound();
      return reply.envelope(found);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/approvals/:id/response',
    action: 'RespondToApproval',
    tags,
    summary: 'Answer an approval as yourself: response approved or rejected, optional note',
    description:
      'The caller must be an editor and named as a reviewer by lowercased email (else 403). Each reviewer answers ' +
      'once (409 already_answered); a settled approval takes no answer (409 already_decided); an approval of a ' +
      'variation no longer submitted is 409 variation_not_pending. When the last required reviewer answers, the ' +
      'approval settles: approved if every required reviewer approved, else rejected; a variation it reviews ' +
      'becomes approved or rejected in the same transaction. Optional reviewers never settle it. Publishes ' +
      'approval.answered, and approval.settled and variation.approved / variation.rejected when it settles.',
    params: RegisterParams,
    body: Command(ResponseInput),
    response: Envelope(Approval),
    errors: [
      'approval_not_found',
      'project_not_found',
      'project_closed',
      'already_decided',
      'already_answered',
      'variation_not_pending',
    ],
    run: (ctx, { params, body }) => respondToApproval(ctx, params.id, body.data),
  }),
];
