import { randomUUID } from 'node:crypto';
import { Command, type CommandResult, Envelope, type Principal, sendCommandResult } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { replaceRoutingRules, setRouting } from '../commands/routing.ts';
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
import { readOptOuts, readRules, readSettings } from '../store/routing.ts';
import { decisionStats } from '../store/routing-decisions.ts';
import { utcDay } from '../store/usage-writes.ts';
import { type RouteDeps, type Routes, route, runBrokerCommand } from './deps.ts';

const tags = ['routing'];

/**
 * Runs a routing command, then tells this replica's router before answering, so the caller's
 * next relay already follows the change.
 */
async function routingCommand<T>(
  deps: RouteDeps,
  input: { req: FastifyRequest; reply: FastifyReply; principal: Principal },
  work: (ctx: CommandCtx) => Promise<T>,
) {
  const result = await runBrokerCommand(
    deps,
    input.req,
    input.principal,
    async (ctx): Promise<CommandResult<T>> => ({ status: 200, data: await work(ctx) }),
  );
  deps.router.invalidate?.();
  return sendCommandResult(input.reply, result);
}

/** The routing routes (spec 3, Broker): substitution rules, opt-outs, the default rule, families and stats. */
export const ROUTING_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/routing/rules',
    action: 'read_own',
    tags,
    summary: 'The substitution rules, in the order they are tried (any staff member)',
    description:
      'The first enabled rule matching the call (model, and provider and api when named) sends it to target_model, ' +
      'unless routing is off for the caller. A rule whose target the call’s provider does not offer, or offers at a ' +
      'higher price, is passed over.',
    response: Envelope(Type.Array(Rule)),
    handler: async ({ reply }, deps) => reply.envelope(await readRules(deps.database.db)),
  }),

  route({
    method: 'PUT',
    url: '/v1/routing/rules',
    action: 'manage_routing',
    tags,
    summary: 'Replace the substitution rules (platform admins); answers the new list',
    description:
      'The whole list is replaced. A provider the catalog lacks is 422 unknown_provider; a target, or an exact ' +
      'match model, the catalog lacks (or a target the matched model’s provider does not offer) is 422 ' +
      'unknown_model; a target dearer than the exact model it replaces is 422 target_more_expensive; an id given ' +
      'twice is 422 duplicate_rule_id. Nothing is stored on any error.',
    body: Command(RulesInput),
    response: Envelope(Type.Array(Rule)),
    errors: ['unknown_provider', 'unknown_model', 'target_more_expensive', 'duplicate_rule_id'],
    // A command that answers itself: this replica's router reloads once it ran.
    command: true,
    handler: async (input, deps) => {
      const rules: RoutingRule[] = input.body.data.rules.map((r) => ({
        id: r.id ?? randomUUID(),
        name: r.name.trim(),
        match: r.match,
        target_model: r.target_model,
        enabled: r.enabled ?? true,
      }));
      checkRules(deps.catalog, rules);
      return routingCommand(deps, input, (ctx) => replaceRoutingRules(ctx, rules));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/routing/auto-route',
    action: 'manage_routing',
    tags,
    summary: 'Turn routing on or off for one email (platform admins); on by default',
    description:
      'Off: calls billed to the email go to the model asked for, even when a rule matches. Turning off an email ' +
      'already off keeps when and by whom it was first turned off.',
    body: Command(AutoRouteInput),
    response: Envelope(AutoRoute),
    command: true,
    handler: async (input, deps) => {
      const email = input.body.data.email.toLowerCase();
      return routingCommand(deps, input, (ctx) => setRouting(ctx, email, input.body.data.enabled));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/routing/exceptions',
    action: 'read_everyone',
    tags,
    summary: 'Those with routing off, when and by whom (platform admins), by email',
    response: Envelope(Type.Array(RoutingException)),
    handler: async ({ reply }, deps) => reply.envelope(await readOptOuts(deps.database.db)),
  }),

  route({
    method: 'GET',
    url: '/v1/routing/settings',
    action: 'read_own',
    tags,
    summary: 'The default rule: quick-check limits and the classifier model (any staff member)',
    description:
      'Read only: the values live in the routing_settings row. A request of a routing family that passes the quick ' +
      'check goes to the cheapest cheaper model of its family; one that fails it is graded by the classifier ' +
      'model when one is named and the request is within its ceiling, else kept as asked.',
    response: Envelope(Settings),
    handler: async ({ reply }, deps) => {
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
  }),

  route({
    method: 'GET',
    url: '/v1/routing/families',
    action: 'read_own',
    tags,
    summary: 'Route families with their routing-enabled models, cheapest first (any staff member)',
    description: 'Cheapest by price_measure: the input plus the output price per million tokens.',
    response: Envelope(Type.Array(Family)),
    handler: async ({ reply }, deps) => reply.envelope(routeFamilies(deps.catalog)),
  }),

  route({
    method: 'GET',
    url: '/v1/routing/stats',
    action: 'read_own',
    tags,
    summary: 'Routing decisions counted by day, family, tier, classifier and outcome',
    description:
      'from and to are inclusive UTC days (default: this month to today); a malformed day or from after to is 422 ' +
      'bad_period. Platform admins see everyone; others see their own decisions and those of identities they ' +
      'created, and naming anyone else as actor is 403.',
    query: StatsQuery,
    response: Envelope(Type.Array(StatsRow)),
    errors: ['bad_period'],
    handler: async ({ query: q, principal, reply }, deps) => {
      await deps.usage.settled();
      const period = reportPeriod(q, utcDay(deps.clock()));
      const db = deps.database.db;
      const actors = await reportActors(db, principal, q.actor);
      return reply.envelope(await decisionStats(db, { ...period, actors, family: q.family, classifier: q.classifier }));
    },
  }),
];
