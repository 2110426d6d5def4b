import {
  type CommandScope,
  type Database,
  type DeclaredRoute,
  declareRoutes,
  isCommandRoute,
  type KitErrorCode,
  type Principal,
  type RouteSpec,
} from '@platform/kit';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { events, WorkspaceEvent } from '../events.ts';
import { CommandHeaders } from '../schemas/common.ts';
import type { DB } from '../store/db.ts';
import { type VisibleProject, visibleProject } from '../store/projects.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
}

/** X-Platform-As-Member: true limits a platform admin to their memberships (and never grants admin). */
export const asMember = (req: FastifyRequest) => {
  const v = req.headers['x-platform-as-member'];
  return (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';
};

const declarer = declareRoutes<Action, ErrorCode, RouteDeps, CommandScope<DB, WorkspaceEvent>>({
  can,
  errors: ERRORS,
});

/** Registers declared routes with everything the kit derives (app.ts passes ROUTES). */
export const { register } = declarer;

/**
 * Workspace's route declarer (issue 15.4): one declaration per route; the kit derives the guard
 * from the action, the Idempotency-Key for commands, the typed principal, the OpenAPI entry and its
 * codes (checked against ERRORS). A command's work runs with the caller's X-Platform-As-Member
 * (CommandCtx.asMember), and every command documents that header beside the Idempotency-Key.
 */
export const route = <
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(
  spec: RouteSpec<Action, ErrorCode | KitErrorCode, RouteDeps, B, Q, P, CommandCtx>,
): DeclaredRoute<RouteDeps> => {
  const { run } = spec;
  return declarer.route<B, Q, P>({
    ...spec,
    ...(isCommandRoute(spec) ? { schema: { headers: CommandHeaders, ...spec.schema } } : {}),
    run: run && ((scope, input, deps) => run({ ...scope, asMember: asMember(input.req) }, input, deps)),
  });
};

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/** A read: the project as the caller may see it (404 project_not_found when they cannot). */
export const readableProject = (
  deps: RouteDeps,
  caller: { principal: Principal; req: FastifyRequest },
  id: string,
): Promise<VisibleProject> => visibleProject(deps.database.db, caller.principal, asMember(caller.req), id);
