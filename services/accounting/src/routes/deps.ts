import { type App, type Database, handleCommand, routeGuards } from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';

export interface RouteDeps {
  database: Database;
  clock: () => Date;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

export const { reader, commander } = routeGuards<Action>(can);

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = <T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandCtx) => Promise<T>,
  status = 200,
) => handleCommand(deps.database.db, deps.clock, req, reply, work, status);
