import { Command, Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { openDecision, recordDecision } from '../commands/decisions.ts';
import { decisionNotFound } from '../domain/decisions.ts';
import {
  Decision,
  DecisionDetail,
  DecisionInput,
  DecisionListQuery,
  OutcomeInput,
  RegisterParams,
} from '../schemas/registers.ts';
import { decisionDetail, listDecisions } from '../store/decisions.ts';
import { type Routes, route } from './deps.ts';

const tags = ['decisions'];

export const DECISION_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/decisions',
    action: 'OpenDecision',
    tags,
    summary: 'Open a question on a project with alternatives and participants (FIDs)',
    description: 'Editors. The project must be open (409 project_closed). Publishes decision.opened.',
    body: Command(DecisionInput),
    response: Envelope(DecisionDetail),
    status: 201,
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { body }) => openDecision(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/decisions',
    action: 'ReadDecisions',
    tags,
    summary: 'Decisions newest first, of one project (project_id) or all; rows without alternatives and participants',
    query: DecisionListQuery,
    response: PageEnvelope(Decision),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const filter = { project_id: query.project_id, status: query.status as string | undefined };
      const { items, total } = await listDecisions(deps.database.db, filter, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/decisions/:id',
    action: 'ReadDecisions',
    tags,
    summary: 'One decision with its alternatives and participants',
    params: RegisterParams,
    response: Envelope(DecisionDetail),
    errors: ['decision_not_found'],
    handler: async ({ params, reply }, deps) => {
      const found = await decisionDetail(deps.database.db, params.id);
      if (!found) throw decisionNotFound();
      return reply.envelope(found);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/decisions/:id/outcome',
    action: 'RecordDecision',
    tags,
    summary: 'Record the outcome and its cost (integer minor units), once',
    description:
      'Editors. alternative_id, when sent, must be one of this decision’s alternatives (422 ' +
      'alternative_of_another_decision). A decided decision is 409 already_decided. Publishes decision.recorded.',
    params: RegisterParams,
    body: Command(OutcomeInput),
    response: Envelope(Decision),
    errors: [
      'decision_not_found',
      'project_not_found',
      'project_closed',
      'already_decided',
      'alternative_of_another_decision',
    ],
    run: (ctx, { params, body }) => recordDecision(ctx, params.id, body.data),
  }),
];
