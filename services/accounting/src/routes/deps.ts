import {
  type App,
  type Database,
  guard,
  type Principal,
  requireIdempotencyKey,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { type Action, can } from '../domain/permissions.ts';

export interface RouteDeps {
  database: Database;
  clock: () => Date;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

/** preValidation hooks of a read: who may read. */
export const reader = (action: Action) => [guard((p) => can(p, action))];

/** preValidation hooks of a command: who may run it, then the Idempotency-Key. */
export const commander = (action: Action) => [guard((p) => can(p, action)), requireIdempotencyKey];

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export async function command<T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandCtx) => Promise<T>,
  status = 200,
) {
  const principal = req.principal as Principal;
  const now = deps.clock();
  const result = await runCommand({ db: deps.database.db, req, principal }, async (trx) => ({
    status,
    data: await work({ trx, principal, now }),
  }));
  return sendCommandResult(reply, result) as never;
}
