import { Envelope, OptionalDataCommand, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { connectDataSource } from '../commands/data-sources.ts';
import { approveDecisionAsFact, archiveDecision, editDecision } from '../commands/decision-facts.ts';
import { proposeDecision } from '../commands/decisions.ts';
import { DATA_SOURCE_PAGE } from '../domain/data-sources.ts';
import { DECISION_PAGE, decisionNotFound } from '../domain/decisions.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { DataSource, DataSourceInput, DataSourceListQuery } from '../schemas/data-sources.ts';
import {
  ApproveDecisionInput,
  Decision,
  DecisionInput,
  DecisionListQuery,
  DecisionParams,
  DecisionPatch,
} from '../schemas/decisions.ts';
import { listDataSources } from '../store/data-sources.ts';
import { findDecision, listDecisions } from '../store/decisions.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['decisions'];

/** Decisions (propose, list, read, approve) and a project's connected data sources (issue 16). */
export const decisionRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/decisions',
    action: 'use',
    tags,
    summary: "The project's decisions, proposed and approved (viewers), newest first; status narrows to one",
    description: 'Page mode: 50 by default, at most 200 (more is 422).',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: DecisionListQuery,
    response: PageEnvelope(Decision),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, query, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      const page = pageRequest(query, DECISION_PAGE.pageSize);
      const { items, total } = await listDecisions(deps.database.db, project.id, page, query.status);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/decisions',
    action: 'use',
    tags,
    summary: 'Propose a decision (editors); it reads proposed until an owner approves it',
    description:
      'title trimmed, 1 to 200 characters (422 invalid_title); detail optional, at most 20,000 characters ' +
      '(422 invalid_detail). Publishes project.decision_proposed (ids only), which adds a decision.proposed ' +
      'activity row.',
    params: ProjectParams,
    body: Command(DecisionInput),
    response: Envelope(Decision),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_title', 'invalid_detail'],
    run: (ctx, { params, body }) => proposeDecision(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/decisions/:decisionId',
    action: 'use',
    tags,
    summary: 'One decision (viewers); one on another project is 404 decision_not_found',
    schema: { headers: AsMemberHeaders },
    params: DecisionParams,
    response: Envelope(Decision),
    errors: ['project_not_found', 'decision_not_found'],
    handler: async (input, deps) => {
      const { params, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      const decision = await findDecision(deps.database.db, project.id, params.decisionId);
      if (!decision) throw decisionNotFound();
      return reply.envelope(decision);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/decisions/:decisionId/approve',
    action: 'use',
    tags,
    summary: 'Approve a proposed decision (owners): it becomes a fact of the project; data optional',
    description:
      'An approved decision is 409 decision_already_approved; a superseded or archived one 409 decision_closed. ' +
      'Publishes project.decision_approved (ids only), which adds a decision.approved activity row, and ' +
      'fact.recorded. data.supersedes names an approved decision of the project this one replaces: it reads ' +
      'superseded (superseded_by this one) and fact.superseded is published for it; anything else is 422 ' +
      'invalid_supersedes.',
    params: DecisionParams,
    body: OptionalDataCommand(ApproveDecisionInput),
    emptyBody: true,
    response: Envelope(Decision),
    errors: [
      'project_not_found',
      'project_archived',
      'decision_not_found',
      'decision_already_approved',
      'decision_closed',
      'invalid_supersedes',
    ],
    run: (ctx, { params, body }) => approveDecisionAsFact(ctx, params.id, params.decisionId, body?.data ?? {}),
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id/decisions/:decisionId',
    action: 'use',
    tags,
    summary: "Edit a decision's title or detail (owners)",
    description:
      'Proposed or approved decisions; superseded or archived ones are 409 decision_closed. Publishes ' +
      'project.decision_updated (changed field names), and fact.updated when the decision is approved (a fact: ' +
      'knowledge derives its claims again). Unchanged text writes and publishes nothing.',
    params: DecisionParams,
    body: Command(DecisionPatch),
    response: Envelope(Decision),
    errors: [
      'project_not_found',
      'project_archived',
      'decision_not_found',
      'decision_closed',
      'invalid_title',
      'invalid_detail',
    ],
    run: (ctx, { params, body }) => editDecision(ctx, params.id, params.decisionId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/decisions/:decisionId/archive',
    action: 'use',
    tags,
    summary: 'Archive a decision (owners): a proposal is withdrawn, an approved decision retired; no data',
    description:
      'Publishes project.decision_archived, and fact.archived when the decision was approved (knowledge ' +
      'withdraws the claims derived from it). Superseded or archived already: 409 decision_closed.',
    params: DecisionParams,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    response: Envelope(Decision),
    errors: ['project_not_found', 'project_archived', 'decision_not_found', 'decision_closed'],
    run: (ctx, { params }) => archiveDecision(ctx, params.id, params.decisionId),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/data-sources',
    action: 'use',
    tags: ['data sources'],
    summary: "The project's connected data sources (viewers), in the order they were connected",
    description: 'Page mode: 50 by default, at most 200 (more is 422).',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: DataSourceListQuery,
    response: PageEnvelope(DataSource),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, query, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      const page = pageRequest(query, DATA_SOURCE_PAGE.pageSize);
      const { items, total } = await listDataSources(deps.database.db, project.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/data-sources',
    action: 'use',
    tags: ['data sources'],
    summary: 'Connect a data source (editors): a name, a kind and a reference (a URL or an outside id)',
    description:
      'name trimmed, 1 to 200 characters (422 invalid_name); reference trimmed, 1 to 2,000 characters without ' +
      'spaces (422 invalid_reference); the same kind and reference twice is 409 data_source_exists. Publishes ' +
      'project.data_source_connected (ids and kind).',
    params: ProjectParams,
    body: Command(DataSourceInput),
    response: Envelope(DataSource),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_name', 'invalid_reference', 'data_source_exists'],
    run: (ctx, { params, body }) => connectDataSource(ctx, params.id, body.data),
  }),
];
