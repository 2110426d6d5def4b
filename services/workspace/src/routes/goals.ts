import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { postCheckin } from '../commands/checkins.ts';
import { createGoal, deleteGoal, editGoal } from '../commands/goals.ts';
import { CHECKIN_PAGE, goalNotFound } from '../domain/goals.ts';
import { AsMemberHeaders, Command, CommandHeaders, ProjectParams } from '../schemas/common.ts';
import { Checkin, CheckinInput, CheckinListQuery, Goal, GoalInput, GoalParams, GoalPatch } from '../schemas/goals.ts';
import { listCheckins } from '../store/checkins.ts';
import { findGoal, listGoals, readGoals } from '../store/goals.ts';
import { command, commander, type RouteModule, readableProject, reader } from './deps.ts';

const tags = ['goals'];

const READ_FIELDS =
  'last_checkin_at and last_checkin_status are absent before the first check-in. checkin_state (current, due, ' +
  'overdue) and next_checkin_on (New York date) are computed at each read from the project checkin_weekday, the ' +
  'goal creation time and its latest check-in, and are absent on closed goals.';

export const goalRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/projects/:id/goals',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: "The project's goals (viewers): active goals first, then closed ones; each oldest first",
        description: READ_FIELDS,
        headers: AsMemberHeaders,
        params: ProjectParams,
        response: { 200: Envelope(Type.Array(Goal)) },
      },
    },
    async (req, reply) => {
      const { project } = await readableProject(deps, req, req.params.id);
      const db = deps.database.db;
      const goals = await readGoals(db, await listGoals(db, project.id), project.checkin_weekday, deps.clock());
      return reply.envelope(goals);
    },
  );

  app.get(
    '/v1/projects/:id/goals/:goalId',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: 'One goal (viewers); a goal on another project is 404 goal_not_found',
        description: READ_FIELDS,
        headers: AsMemberHeaders,
        params: GoalParams,
        response: { 200: Envelope(Goal) },
      },
    },
    async (req, reply) => {
      const { project } = await readableProject(deps, req, req.params.id);
      const db = deps.database.db;
      const goal = await findGoal(db, project.id, req.params.goalId);
      if (!goal) throw goalNotFound();
      const [view] = await readGoals(db, [goal], project.checkin_weekday, deps.clock());
      return reply.envelope(view as Goal);
    },
  );

  app.post(
    '/v1/projects/:id/goals',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Add a goal (owners)',
        description:
          'Title trimmed, 1 to 200 characters (422 invalid_title). lead defaults to the caller and must be a project ' +
          'member of any role (422 lead_not_member). No target_date means ongoing. status is on_track (default), ' +
          'at_risk or off_track. At most five active goals per project (422 too_many_active_goals). An archived ' +
          'project is 409 project_archived.',
        headers: CommandHeaders,
        params: ProjectParams,
        body: Command(GoalInput),
        response: { 201: Envelope(Goal) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createGoal(ctx, req.params.id, req.body.data), 201),
  );

  app.patch(
    '/v1/projects/:id/goals/:goalId',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Change a goal: owners anything; the lead only status and closing_note',
        description:
          'Changes only the fields sent; a field sent with its current value is no change. The lead (when not an ' +
          'owner) changing anything but status and closing_note is 403, as is anyone else. achieved, missed and ' +
          'dropped close the goal and need a closing note (422 closing_note_required); a closing note on an open ' +
          'goal is 422 closing_note_not_allowed; reopening clears the note and counts against the five active ' +
          'goals (422 too_many_active_goals). A PATCH that changes nothing answers the goal without an event or ' +
          'change number.',
        headers: CommandHeaders,
        params: GoalParams,
        body: Command(GoalPatch),
        response: { 200: Envelope(Goal) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => editGoal(ctx, req.params.id, req.params.goalId, req.body.data)),
  );

  app.delete(
    '/v1/projects/:id/goals/:goalId',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: 'Delete a goal without check-ins (owners); no body; 204',
        description:
          'A goal with check-ins is 422 goal_has_checkins (close it as dropped). Its tasks are unlinked (goal_id ' +
          'null), each with a goal_id change-log row.',
        headers: CommandHeaders,
        params: GoalParams,
        response: { 204: Type.Null({ description: 'No content' }) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => deleteGoal(ctx, req.params.id, req.params.goalId), 204),
  );

  app.post(
    '/v1/projects/:id/goals/:goalId/checkins',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary: "Post a check-in (the goal's lead or a project owner); the goal takes its status",
        description:
          'status on_track, at_risk or off_track; note trimmed, one line (422 note_not_one_line), 1 to 500 characters ' +
          '(422 invalid_note). Anyone else on the project is 403 not_a_member; a closed goal 422 goal_closed; an ' +
          'archived project 409 project_archived. Check-ins are permanent.',
        headers: CommandHeaders,
        params: GoalParams,
        body: Command(CheckinInput),
        response: { 201: Envelope(Checkin) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => postCheckin(ctx, req.params.id, req.params.goalId, req.body.data), 201),
  );

  app.get(
    '/v1/projects/:id/goals/:goalId/checkins',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary: "A goal's check-ins (viewers), newest first; page mode, 25 by default, at most 100 (more is 422)",
        headers: AsMemberHeaders,
        params: GoalParams,
        querystring: CheckinListQuery,
        response: { 200: PageEnvelope(Checkin) },
      },
    },
    async (req, reply) => {
      const { project } = await readableProject(deps, req, req.params.id);
      const db = deps.database.db;
      const goal = await findGoal(db, project.id, req.params.goalId);
      if (!goal) throw goalNotFound();
      const page = pageRequest(req.query, CHECKIN_PAGE.pageSize);
      const { items, total } = await listCheckins(db, goal.id, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );
};
