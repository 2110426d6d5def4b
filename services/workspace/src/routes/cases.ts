import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { editCase, openCase, recordAmount, transitionCase } from '../commands/cases.ts';
import { caseValueReport } from '../domain/case-value.ts';
import {
  ACTIONABLE_STATUSES,
  CASE_PAGE,
  CASE_STATUSES,
  type CaseStatus,
  caseNotFound,
  caseView,
} from '../domain/cases.ts';
import {
  AmountInput,
  AmountListQuery,
  Case,
  CaseAmount,
  CaseInput,
  CaseListQuery,
  CaseParams,
  CasePatch,
  CaseValue,
  TransitionInput,
} from '../schemas/cases.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { caseValueFacts } from '../store/case-value.ts';
import { findCase, listAmounts, listCases } from '../store/cases.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['cases'];

const MOVES =
  'Allowed moves: needs_validation to accepted or dismissed; accepted to in_progress or dismissed; in_progress to ' +
  'verified or dismissed; verified and dismissed make none (409 case_move_not_allowed).';

/** The states a list filter asks for: actionable (true: needing a decision, the work or the check; false: the rest), and/or one status. */
function statusFilter(actionable: boolean | undefined, status: CaseStatus | undefined): CaseStatus[] | undefined {
  let states: CaseStatus[] | undefined;
  if (actionable !== undefined) {
    states = CASE_STATUSES.filter((s) => ACTIONABLE_STATUSES.includes(s) === actionable);
  }
  if (status !== undefined) states = (states ?? [status]).filter((s) => s === status);
  return states;
}

export const caseRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/cases',
    action: 'use',
    tags,
    summary: "The project's cases (viewers), newest first; page mode, 50 by default, at most 200 (more is 422)",
    description:
      'actionable=true lists only cases that need a decision (needs_validation), the work (accepted) or the check ' +
      '(in_progress); actionable=false only verified and dismissed ones. status and owner narrow further.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: CaseListQuery,
    response: PageEnvelope(Case),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const { actionable, status, owner } = input.query;
      const page = pageRequest(input.query, CASE_PAGE.pageSize);
      const { items, total } = await listCases(
        deps.database.db,
        project.id,
        { statuses: statusFilter(actionable, status), ...(owner === undefined ? {} : { owner }) },
        page,
      );
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/cases/:caseId',
    action: 'use',
    tags,
    summary: 'One case (viewers); a case on another project is 404 case_not_found',
    schema: { headers: AsMemberHeaders },
    params: CaseParams,
    response: Envelope(Case),
    errors: ['project_not_found', 'case_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const found = await findCase(deps.database.db, project.id, input.params.caseId);
      if (!found) throw caseNotFound();
      return input.reply.envelope(caseView(found));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/cases',
    action: 'use',
    tags,
    summary: 'Open a case (editors); it starts in needs_validation',
    description:
      'title and subject trimmed, 1 to 200 characters; proposed_correction 1 to 10,000; evidence up to 50 entries ' +
      'of 1 to 2,000 characters; still_to_check may be empty (422 invalid_case_field). owner defaults to the ' +
      'caller and must be a project member (422 case_owner_not_member). expected_value is a projection in minor ' +
      'units of one ISO 4217 currency (422 unknown_currency; a recurring part needs its months, 422 ' +
      'invalid_expected_value). Publishes project.case_opened.',
    params: ProjectParams,
    body: Command(CaseInput),
    response: Envelope(Case),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'invalid_case_field',
      'case_owner_not_member',
      'unknown_currency',
      'invalid_expected_value',
    ],
    run: (ctx, { params, body }) => openCase(ctx, params.id, body.data),
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id/cases/:caseId',
    action: 'use',
    tags,
    summary: 'Edit an open case (editors); verified and dismissed cases are not edited (409 case_closed)',
    description:
      'Changes only the fields sent; a field sent with its current value is no change, and a PATCH that changes ' +
      'nothing answers the case without an event. expected_value null clears it. The status changes only through ' +
      'the transition route. Publishes project.case_updated with the changed field names.',
    params: CaseParams,
    body: Command(CasePatch),
    response: Envelope(Case),
    errors: [
      'project_not_found',
      'project_archived',
      'case_not_found',
      'case_closed',
      'invalid_case_field',
      'case_owner_not_member',
      'unknown_currency',
      'invalid_expected_value',
    ],
    run: (ctx, { params, body }) => editCase(ctx, params.id, params.caseId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/cases/:caseId/transition',
    action: 'use',
    tags,
    summary: 'Move a case to another state (editors)',
    description:
      `${MOVES} Dismissing needs data.reason (422 dismissal_reason_required); verifying needs data.method, how it ` +
      'was verified (422 verification_method_required); either on another move is 422 ' +
      'transition_detail_not_allowed. Publishes project.case_status_changed.',
    params: CaseParams,
    body: Command(TransitionInput),
    response: Envelope(Case),
    errors: [
      'project_not_found',
      'project_archived',
      'case_not_found',
      'case_move_not_allowed',
      'dismissal_reason_required',
      'verification_method_required',
      'transition_detail_not_allowed',
      'invalid_case_field',
    ],
    run: (ctx, { params, body }) => transitionCase(ctx, params.id, params.caseId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/cases/:caseId/amounts',
    action: 'use',
    tags,
    summary: 'Record an amount on a case (editors): a stage, integer minor units and a currency',
    description:
      'identified while needs_validation, accepted or in_progress; approved once accepted (accepted, in_progress); ' +
      'posted once in progress; collected (cash observed) while in_progress or verified, with tied_to_correction ' +
      '(422 tied_to_correction_required; on other stages 422 tied_to_correction_not_allowed). A dismissed case ' +
      'takes none. Otherwise 409 amount_stage_not_allowed. currency is an ISO 4217 code (422 unknown_currency). ' +
      'Rows are never edited. Publishes project.case_amount_recorded.',
    params: CaseParams,
    body: Command(AmountInput),
    response: Envelope(CaseAmount),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'case_not_found',
      'amount_stage_not_allowed',
      'unknown_currency',
      'tied_to_correction_required',
      'tied_to_correction_not_allowed',
    ],
    run: (ctx, { params, body }) => recordAmount(ctx, params.id, params.caseId, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/cases/:caseId/amounts',
    action: 'use',
    tags,
    summary: "A case's amounts (viewers), oldest first; page mode, 50 by default, at most 200 (more is 422)",
    schema: { headers: AsMemberHeaders },
    params: CaseParams,
    query: AmountListQuery,
    response: PageEnvelope(CaseAmount),
    errors: ['project_not_found', 'case_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const found = await findCase(db, project.id, input.params.caseId);
      if (!found) throw caseNotFound();
      const page = pageRequest(input.query, CASE_PAGE.pageSize);
      const { items, total } = await listAmounts(db, found.id, page);
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/case-value',
    action: 'use',
    tags,
    summary: 'Case value (viewers): totals by stage and currency; not a recovered-revenue figure',
    description:
      'Stage totals per currency over the counted cases, never added together. Expected value (one-off plus ' +
      'recurring projection) is reported apart and is in no stage total. Of the cases that are not dismissed and ' +
      'name one subject (compared trimmed, spaces collapsed, ignoring case), the first opened counts; the others ' +
      'are listed in duplicates with the case counted instead. A dismissed case is listed with its reason and ' +
      'none of its amounts. Collection that no row observed reads pending, not 0.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(CaseValue),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const facts = await caseValueFacts(deps.database.db, project.id);
      return input.reply.envelope(caseValueReport(project.id, facts));
    },
  }),
];
