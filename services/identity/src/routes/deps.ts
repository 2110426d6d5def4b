import { type App, type CommandScope, type Database, handleCommand, routeGuards } from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Action, can } from '../domain/permissions.ts';
import type { GatewayIssuer } from '../oauth/gateway.ts';

export interface RouteDeps {
  database: Database;
  clock: () => Date;
  gateway?: GatewayIssuer;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

export const { reader, commander } = routeGuards<Action>(can);

export const command = <T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandScope) => Promise<T>,
  status = 200,
) => handleCommand(deps.database.db, deps.clock, req, reply, work, status);
