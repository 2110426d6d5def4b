import { Command, Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { changeRiskStatus, raiseRisk } from '../commands/risks.ts';
import { riskNotFound } from '../domain/risks.ts';
import { RegisterParams, Risk, RiskInput, RiskListQuery, RiskStatusInput } from '../schemas/registers.ts';
import { findRisk, listRisks } from '../store/risks.ts';
import { type Routes, route } from './deps.ts';

const tags = ['risks'];

export const RISK_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/risks',
    action: 'RaiseRisk',
    tags,
    summary: 'Raise a risk on a project (status open); likelihood and impact low, medium or high',
    description: 'Editors. The project must be open (409 project_closed). Publishes risk.raised.',
    body: Command(RiskInput),
    response: Envelope(Risk),
    status: 201,
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { body }) => raiseRisk(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/risks',
    action: 'ReadRisks',
    tags,
    summary: 'Risks newest first, of one project (project_id) or all; filter status',
    query: RiskListQuery,
    response: PageEnvelope(Risk),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const filter = { project_id: query.project_id, status: query.status as string | undefined };
      const { items, total } = await listRisks(deps.database.db, filter, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/risks/:id',
    action: 'ReadRisks',
    tags,
    summary: 'One risk',
    params: RegisterParams,
    response: Envelope(Risk),
    errors: ['risk_not_found'],
    handler: async ({ params, reply }, deps) => {
      const found = await findRisk(deps.database.db, params.id);
      if (!found) throw riskNotFound();
      return reply.envelope(found);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/risks/:id/status',
    action: 'ManageRisk',
    tags,
    summary: "Set a risk's status: open, mitigated, closed or happened",
    description: 'Editors. The status it already has is 409 same_status. Publishes risk.status_changed.',
    params: RegisterParams,
    body: Command(RiskStatusInput),
    response: Envelope(Risk),
    errors: ['risk_not_found', 'project_not_found', 'project_closed', 'same_status'],
    run: (ctx, { params, body }) => changeRiskStatus(ctx, params.id, body.data),
  }),
];
