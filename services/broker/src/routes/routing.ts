import { randomUUID } from 'node:crypto';
import { Command, Envelope, IdempotencyHeaders, type Principal, runCommand, sendCommandResult } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reportPeriod } from '../domain/period.ts';
import { checkRules, type RoutingRule, routeFamilies } from '../domain/routing.ts';
import {
  AutoRoute,
  AutoRouteInput,
  Family,
  RoutingException,
  Rule,
  RulesInput,
  Settings,
  StatsQuery,
  StatsRow,
} from '../schemas/routing.ts';
import { reportActors } from '../store/people.ts';
import { readOptOuts, readRules, readSettings, replaceRules, setAutoRoute } from '../store/routing.ts';
import { decisionStats } from '../store/routing-decisions.ts';
import { utcDay } from '../store/usage-writes.ts';
import { commander, type RouteDeps, type RouteModule, reader } from './deps.ts';

const tags = ['routing'];

/** Who made a change, as exceptions show it. */
const actorName = (p: Principal) => p.email ?? p.id;

/**
 * Runs a routing command, then tells this replica's router before answering, so the caller's
 * next relay already follows the change.
 */
async function routingCommand<T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (trx: Parameters<typeof replaceRules>[0], principal: Principal, now: Date) => Promise<T>,
) {
  const principal = req.principal as Principal;
  const now = deps.clock();
  const result = await runCommand({ db: deps.database.db, req, principal }, async (trx) => ({
    status: 200,
    data: await work(trx, principal, now),
  }));
  deps.router.invalidate?.();
  return sendCommandResult(reply, result);
}

export const routingRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/routing/rules',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: 'The substitution rules, in the order they are tried (any staff member)',
        description:
          'The first enabled rule matching the call (model, and provider and api when named) sends it to target_model, ' +
          'unless routing is off for the caller. A rule whose target the call’s provider does not offer, or offers at a ' +
          'higher price, is passed over.',
        response: { 200: Envelope(Type.Array(Rule)) },
      },
    },
    async (_req, reply) => reply.envelope(await readRules(deps.database.db)),
  );

  app.put(
    '/v1/routing/rules',
    {
      preValidation: commander('manage_routing'),
      schema: {
        tags,
        summary: 'Replace the substitution rules (platform admins); answers the new list',
        description:
          'The whole list is replaced. A provider the catalog lacks is 422 unknown_provider; a target, or an exact ' +
          'match model, the catalog lacks (or a target the matched model’s provider does not offer) is 422 ' +
          'unknown_model; a target dearer than the exact model it replaces is 422 target_more_expensive; an id given ' +
          'twice is 422 duplicate_rule_id. Nothing is stored on any error.',
        headers: IdempotencyHeaders,
        body: Command(RulesInput),
        response: { 200: Envelope(Type.Array(Rule)) },
      },
    },
    async (req, reply) => {
      const rules: RoutingRule[] = req.body.data.rules.map((r) => ({
        id: r.id ?? randomUUID(),
        name: r.name.trim(),
        match: r.match,
        target_model: r.target_model,
        enabled: r.enabled ?? true,
      }));
      checkRules(deps.catalog, rules);
      return routingCommand(deps, req, reply, async (trx, principal, now) => {
        await replaceRules(trx, rules, actorName(principal), now);
        return readRules(trx);
      });
    },
  );

  app.put(
    '/v1/routing/auto-route',
    {
      preValidation: commander('manage_routing'),
      schema: {
        tags,
        summary: 'Turn routing on or off for one email (platform admins); on by default',
        description:
          'Off: calls billed to the email go to the model asked for, even when a rule matches. Turning off an email ' +
          'already off keeps when and by whom it was first turned off.',
        headers: IdempotencyHeaders,
        body: Command(AutoRouteInput),
        response: { 200: Envelope(AutoRoute) },
      },
    },
    async (req, reply) => {
      const email = req.body.data.email.toLowerCase();
      const { enabled } = req.body.data;
      return routingCommand(deps, req, reply, async (trx, principal, now) => {
        const off = await setAutoRoute(trx, email, enabled, actorName(principal), now);
        return { email, enabled, off_at: off?.off_at ?? null, off_by: off?.off_by ?? null };
      });
    },
  );

  app.get(
    '/v1/routing/exceptions',
    {
      preValidation: reader('read_everyone'),
      schema: {
        tags,
        summary: 'Those with routing off, when and by whom (platform admins), by email',
        response: { 200: Envelope(Type.Array(RoutingException)) },
      },
    },
    async (_req, reply) => reply.envelope(await readOptOuts(deps.database.db)),
  );

  app.get(
    '/v1/routing/settings',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: 'The default rule: quick-check limits and the classifier model (any staff member)',
        description:
          'Read only: the values live in the routing_settings row. A request of a routing family that passes the quick ' +
          'check goes to the cheapest cheaper model of its family; one that fails it is graded by the classifier ' +
          'model when one is named and the request is within its ceiling, else kept as asked.',
        response: { 200: Envelope(Settings) },
      },
    },
    async (_req, reply) => {
      const s = await readSettings(deps.database.db);
      return reply.envelope({
        quick_check: {
          max_input_chars: s.max_input_chars,
          max_messages: s.max_messages,
          excludes: ['tools', 'images', 'audio', 'files'],
        },
        classifier: s.classifier,
      });
    },
  );

  app.get(
    '/v1/routing/families',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: 'Route families with their routing-enabled models, cheapest first (any staff member)',
        description: 'Cheapest by price_measure: the input plus the output price per million tokens.',
        response: { 200: Envelope(Type.Array(Family)) },
      },
    },
    async (_req, reply) => reply.envelope(routeFamilies(deps.catalog)),
  );

  app.get(
    '/v1/routing/stats',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: 'Routing decisions counted by day, family, tier, classifier and outcome',
        description:
          'from and to are inclusive UTC days (default: this month to today); a malformed day or from after to is 422 ' +
          'bad_period. Platform admins see everyone; others see their own decisions and those of identities they ' +
          'created, and naming anyone else as actor is 403.',
        querystring: StatsQuery,
        response: { 200: Envelope(Type.Array(StatsRow)) },
      },
    },
    async (req, reply) => {
      await deps.usage.settled();
      const q = req.query;
      const period = reportPeriod(q, utcDay(deps.clock()));
      const db = deps.database.db;
      const principal = req.principal as Principal;
      const actors = await reportActors(db, principal, q.actor);
      return reply.envelope(await decisionStats(db, { ...period, actors, family: q.family, classifier: q.classifier }));
    },
  );
};
