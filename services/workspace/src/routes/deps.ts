import {
  type App,
  type CommandOptions,
  type Database,
  handleCommand,
  type Principal,
  routeGuards,
} from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';
import type { events } from '../events.ts';
import type { DB } from '../store/db.ts';
import { type VisibleProject, visibleProject } from '../store/projects.ts';

export interface RouteDeps {
  database: Database<DB>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

export const { reader, commander } = routeGuards<Action>(can);

/** X-Platform-As-Member: true limits a platform admin to their memberships (and never grants admin). */
export const asMember = (req: FastifyRequest) => {
  const v = req.headers['x-platform-as-member'];
  return (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';
};

/** Runs a command once per Idempotency-Key in one transaction, with the caller's X-Platform-As-Member. */
export function command<T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandCtx) => Promise<T>,
  status = 200,
  opts: CommandOptions = {},
) {
  const limited = asMember(req);
  return handleCommand(deps, req, reply, (scope) => work({ ...scope, asMember: limited }), status, opts);
}

/** A read: the project as the caller may see it (404 when they cannot). */
export const readableProject = (deps: RouteDeps, req: FastifyRequest, id: string): Promise<VisibleProject> =>
  visibleProject(deps.database.db, req.principal as Principal, asMember(req), id);
