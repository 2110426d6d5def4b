import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { postCheckin } from '../commands/checkins.ts';
import { createGoal, deleteGoal, editGoal } from '../commands/goals.ts';
import { CHECKIN_PAGE, goalNotFound } from '../domain/goals.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { Checkin, CheckinInput, CheckinListQuery, Goal, GoalInput, GoalParams, GoalPatch } from '../schemas/goals.ts';
import { listCheckins } from '../store/checkins.ts';
import { findGoal, listGoals, readGoals } from '../store/goals.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['goals'];

const READ_FIELDS =
  'last_checkin_at and last_checkin_status are absent before the first check-in. checkin_state (current, due, ' +
  'overdue) and next_checkin_on (New York date) are computed at each read from the project checkin_weekday, the ' +
  'goal creation time and its latest check-in, and are absent on closed goals.';

export const goalRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/goals',
    action: 'use',
    tags,
    summary: "The project's goals (viewers): active goals first, then closed ones; each oldest first",
    description: READ_FIELDS,
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Type.Array(Goal)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const goals = await readGoals(db, await listGoals(db, project.id), project.checkin_weekday, deps.clock());
      return input.reply.envelope(goals);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/goals/:goalId',
    action: 'use',
    tags,
    summary: 'One goal (viewers); a goal on another project is 404 goal_not_found',
    description: READ_FIELDS,
    schema: { headers: AsMemberHeaders },
    params: GoalParams,
    response: Envelope(Goal),
    errors: ['project_not_found', 'goal_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const goal = await findGoal(db, project.id, input.params.goalId);
      if (!goal) throw goalNotFound();
      const [view] = await readGoals(db, [goal], project.checkin_weekday, deps.clock());
      return input.reply.envelope(view as Goal);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/goals',
    action: 'use',
    tags,
    summary: 'Add a goal (owners)',
    description:
      'Title trimmed, 1 to 200 characters (422 invalid_title). lead defaults to the caller and must be a project ' +
      'member of any role (422 lead_not_member). No target_date means ongoing. status is on_track (default), ' +
      'at_risk or off_track. At most five active goals per project (422 too_many_active_goals). An archived ' +
      'project is 409 project_archived.',
    params: ProjectParams,
    body: Command(GoalInput),
    response: Envelope(Goal),
    status: 201,
    errors: ['project_not_found', 'project_archived', 'invalid_title', 'lead_not_member', 'too_many_active_goals'],
    run: (ctx, { params, body }) => createGoal(ctx, params.id, body.data),
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id/goals/:goalId',
    action: 'use',
    tags,
    summary: 'Change a goal: owners anything; the lead only status and closing_note',
    description:
      'Changes only the fields sent; a field sent with its current value is no change. The lead (when not an ' +
      'owner) changing anything but status and closing_note is 403, as is anyone else. achieved, missed and ' +
      'dropped close the goal and need a closing note (422 closing_note_required); a closing note on an open ' +
      'goal is 422 closing_note_not_allowed; reopening clears the note and counts against the five active ' +
      'goals (422 too_many_active_goals). A PATCH that changes nothing answers the goal without an event or ' +
      'change number.',
    params: GoalParams,
    body: Command(GoalPatch),
    response: Envelope(Goal),
    errors: [
      'project_not_found',
      'project_archived',
      'goal_not_found',
      'invalid_title',
      'lead_not_member',
      'closing_note_required',
      'closing_note_not_allowed',
      'invalid_closing_note',
      'too_many_active_goals',
    ],
    run: (ctx, { params, body }) => editGoal(ctx, params.id, params.goalId, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/projects/:id/goals/:goalId',
    action: 'use',
    tags,
    summary: 'Delete a goal without check-ins (owners); no body; 204',
    description:
      'A goal with check-ins is 422 goal_has_checkins (close it as dropped). Its tasks are unlinked (goal_id ' +
      'null), each with a goal_id change-log row.',
    params: GoalParams,
    response: Type.Null({ description: 'No content' }),
    status: 204,
    errors: ['project_not_found', 'project_archived', 'goal_not_found', 'goal_has_checkins'],
    run: (ctx, { params }) => deleteGoal(ctx, params.id, params.goalId),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/goals/:goalId/checkins',
    action: 'use',
    tags,
    summary: "Post a check-in (the goal's lead or a project owner); the goal takes its status",
    description:
      'status on_track, at_risk or off_track; note trimmed, one line (422 note_not_one_line), 1 to 500 characters ' +
      '(422 invalid_note). Anyone else on the project is 403 not_a_member; a closed goal 422 goal_closed; an ' +
      'archived project 409 project_archived. Check-ins are permanent.',
    params: GoalParams,
    body: Command(CheckinInput),
    response: Envelope(Checkin),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'goal_not_found',
      'not_a_member',
      'goal_closed',
      'note_not_one_line',
      'invalid_note',
    ],
    run: (ctx, { params, body }) => postCheckin(ctx, params.id, params.goalId, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/goals/:goalId/checkins',
    action: 'use',
    tags,
    summary: "A goal's check-ins (viewers), newest first; page mode, 25 by default, at most 100 (more is 422)",
    schema: { headers: AsMemberHeaders },
    params: GoalParams,
    query: CheckinListQuery,
    response: PageEnvelope(Checkin),
    errors: ['project_not_found', 'goal_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const db = deps.database.db;
      const goal = await findGoal(db, project.id, input.params.goalId);
      if (!goal) throw goalNotFound();
      const page = pageRequest(input.query, CHECKIN_PAGE.pageSize);
      const { items, total } = await listCheckins(db, goal.id, page);
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),
];
