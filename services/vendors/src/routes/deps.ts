import { type App, type Database, forbidden, handleCommand, requireIdempotencyKey, unauthorized } from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { type CallerPolicy, type Decision, mayChange, mayRead, portalCaller } from '../domain/callers.ts';

export interface RouteDeps {
  database: Database;
  callers: CallerPolicy;
  clock: () => Date;
}

export type RouteModule = (app: App, deps: RouteDeps) => void;

const enforce = (d: Decision) => {
  if (d.allowed) return;
  throw d.refusal === 'unauthenticated' ? unauthorized(d.message) : forbidden(d.message);
};

/** preValidation of a read: employees and services on behalf of a person. */
export const reader = (deps: RouteDeps) => [
  async (req: FastifyRequest) => enforce(mayRead(req.principal, deps.callers)),
];

/** preValidation of a command: who may change (401, 403), then the Idempotency-Key (400), then the schema (422). */
export const commander = (deps: RouteDeps) => [
  async (req: FastifyRequest) => enforce(mayChange(req.principal, deps.callers)),
  requireIdempotencyKey,
];

/** preValidation of a vendor-portal route: portal tokens, dev-header people, services for a contact. */
export const portalReader = (deps: RouteDeps) => [
  async (req: FastifyRequest) => {
    const c = portalCaller(req.principal, deps.callers);
    if (!c.allowed) enforce(c);
  },
];

/** Runs a command once per Idempotency-Key in one transaction and answers with its result. */
export const command = handleCommand;
