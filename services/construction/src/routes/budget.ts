import { Command, Envelope, notFound, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { recordCost, setBudgetLine } from '../commands/budget.ts';
import { COST_PAGE } from '../domain/budget.ts';
import { Budget, BudgetLine, BudgetParams, CostEvent, CostInput, CostListQuery, LineInput } from '../schemas/budget.ts';
import { listCosts, readBudget } from '../store/budget.ts';
import { type Routes, route } from './deps.ts';
import { requireProject } from './plan-items.ts';

const tags = ['budget'];
const P = '/v1/development-projects/:projectId/budget';
const CLOSED = 'A completed or cancelled project takes no more work (409 project_closed).';

export const BUDGET_ROUTES: Routes = [
  route({
    method: 'GET',
    url: P,
    action: 'ReadBudget',
    tags,
    summary: "The project's budget lines with committed and actual, and the totals",
    description:
      'committed_minor and actual_minor of a line are the sums of its cost events; the totals are the sums of the lines. ' +
      'Both are kept by the database as each event is recorded.',
    params: BudgetParams,
    response: Envelope(Budget),
    errors: ['project_not_found'],
    handler: async ({ params, reply }, deps) => {
      const budget = await readBudget(deps.database.db, params.projectId);
      if (!budget) throw notFound('Development project', 'project_not_found');
      return reply.envelope(budget);
    },
  }),

  route({
    method: 'PUT',
    url: `${P}/lines`,
    action: 'ManageBudget',
    tags,
    summary: 'Add the line of a category or change its budget',
    description: `One line per category (compared exactly); its committed and actual are untouched. ${CLOSED}`,
    params: BudgetParams,
    body: Command(LineInput),
    response: Envelope(BudgetLine),
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => setBudgetLine(ctx, params.projectId, body.data),
  }),

  route({
    method: 'POST',
    url: `${P}/costs`,
    action: 'ManageBudget',
    tags,
    summary: 'Record a cost event (committed or actual)',
    description:
      'Cost events are never changed or removed: a correction is a new event, usually one with reverses_id naming ' +
      'the event it undoes (same category and kind, the opposite amount: 422 reversal_mismatch; once: 409 ' +
      'already_reversed; an event not of this project: 404 cost_event_not_found). A category without a line gets ' +
      `one with budget 0. ${CLOSED}`,
    params: BudgetParams,
    body: Command(CostInput),
    response: Envelope(CostEvent),
    status: 201,
    errors: ['project_not_found', 'project_closed', 'cost_event_not_found', 'reversal_mismatch', 'already_reversed'],
    run: (ctx, { params, body }) => recordCost(ctx, params.projectId, body.data),
  }),

  route({
    method: 'GET',
    url: `${P}/costs`,
    action: 'ReadBudget',
    tags,
    summary: "The project's cost events, newest first (by occurred_on, then recording)",
    description: 'category (exact) and kind narrow the list.',
    params: BudgetParams,
    query: CostListQuery,
    response: PageEnvelope(CostEvent),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, COST_PAGE.pageSize);
      const { category, kind } = query;
      const { items, total } = await listCosts(
        deps.database.db,
        params.projectId,
        { ...(category === undefined ? {} : { category }), ...(kind === undefined ? {} : { kind }) },
        page,
      );
      return reply.envelope(items, pageMeta(page, total));
    },
  }),
];
