import {
  type Can,
  type CommandScope,
  type Database,
  type DeclaredRoute,
  declareRoutes,
  type EmitHook,
  IdempotencyHeaders,
  isCommandRoute,
  type KitErrorCode,
  type Principal,
  type RouteSpec,
} from '@platform/kit';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { BrokerClient } from '../clients/broker.ts';
import type { ReadOnlyChecks } from '../clients/checks.ts';
import type { ResidentDirectory } from '../clients/directory.ts';
import type { SkillDocuments } from '../clients/documents.ts';
import type { GitHost } from '../clients/git-host.ts';
import type { PropertyConnector } from '../clients/property-management.ts';
import type { TrackerClient } from '../clients/tracker.ts';
import type { WorkspaceReader } from '../clients/workspace.ts';
import type { BriefSettings } from '../commands/briefs.ts';
import type { CoachingSettings } from '../commands/coaching-job.ts';
import type { CommandCtx } from '../commands/context.ts';
import type { Caller, CallerHint } from '../domain/access.ts';
import type { Action } from '../domain/permissions.ts';
import { ERRORS, type ErrorCode } from '../errors.ts';
import type { AgentsEvent, events } from '../events.ts';
import { CallerHeaders } from '../schemas/common.ts';
import { resolveCaller } from '../store/access.ts';
import type { DB } from '../store/db.ts';

export interface RouteDeps {
  database: Database<DB>;
  /** The policy's `can` with this deployment's gateway audience (domain/permissions.ts). */
  can: Can<Action>;
  clock: () => Date;
  /** The service's declared events: what a command's `emit` accepts. */
  events: typeof events;
  /** The mailbox domain of this environment (AGT-024). */
  mailDomain: string;
  /** Runs after every emit of a command, in its transaction. */
  onEmit?: EmitHook<DB>;
  /** Wakes the reconciler after a command that changed what should run has committed. */
  nudge?: () => void;
  /** Waits, at most boundMs, for a reconcile pass begun after the call (start and restart answer after one). */
  settle?: (boundMs: number) => Promise<void>;
  /** The model broker's relay (on-demand calls); unset when AGENTS_BROKER_URL is not configured. */
  broker?: BrokerClient;
  /** The documents service (skill archives); unset when AGENTS_DOCUMENTS_URL is not configured. */
  documents?: SkillDocuments;
  /** The issue tracker; unset without TRACKER_URL, TRACKER_EMAIL and TRACKER_API_TOKEN (503). */
  tracker?: TrackerClient;
  /** The git host; unset without GITHUB_TOKEN and TRACKER_GITHUB_ORG (503 on reports). */
  gitHost?: GitHost;
  /** The read-only checks of tracker/investigate, each unset without its URL and token (503). */
  checks?: ReadOnlyChecks;
  /** The workspace API read on a person's behalf; unset when AGENTS_WORKSPACE_URL is not configured. */
  workspace?: WorkspaceReader;
  /** Weekly coaching's settings (COACH_RECIPIENTS, COACH_COMMUNICATION_RECIPIENTS, COACH_MODEL). */
  coaching?: CoachingSettings;
  /** Daily briefs' settings (BRIEF_RECIPIENTS, BRIEF_MODEL, BRIEF_CONCURRENCY). */
  briefs?: BriefSettings;
  /** The property-management connector; unset without PM_CONNECTOR_URL and PM_CONNECTOR_TOKEN (503). */
  propertyConnector?: PropertyConnector;
  /** The resident directory; unset without DIRECTORY_URL and DIRECTORY_TOKEN (503). */
  directory?: ResidentDirectory;
}

const headerOf = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim();
};

/** What the headers and the policy say about the caller (X-Platform-Agent-Id, X-Platform-As-Member). */
export function callerHint(req: FastifyRequest, principal: Principal, can: Can<Action>): CallerHint {
  const asMember = headerOf(req, 'x-platform-as-member')?.toLowerCase() === 'true';
  return {
    agentId: headerOf(req, 'x-platform-agent-id') || null,
    admin: !asMember && can(principal, 'ReadAllAgents'),
  };
}

const declarer = declareRoutes<Action, ErrorCode, RouteDeps, CommandScope<DB, AgentsEvent>>({
  can: (deps: RouteDeps) => deps.can,
  errors: ERRORS,
});

/** Registers declared routes with everything the kit derives (app.ts passes ROUTES). */
export const { register } = declarer;

/**
 * The agents service's route declarer: one declaration per route; the kit derives the guard from
 * the action, the Idempotency-Key for commands, the typed principal, the OpenAPI entry and its
 * codes (checked against ERRORS). Every route documents X-Platform-Agent-Id and
 * X-Platform-As-Member and may answer agent_header_not_allowed; a command's work runs with them
 * read (CommandCtx.hint).
 */
export const route = <
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(
  spec: RouteSpec<Action, ErrorCode | KitErrorCode, RouteDeps, B, Q, P, CommandCtx>,
): DeclaredRoute<RouteDeps> => {
  const { run } = spec;
  const headers = isCommandRoute(spec)
    ? Type.Object({ ...IdempotencyHeaders.properties, ...CallerHeaders })
    : Type.Object(CallerHeaders);
  return declarer.route<B, Q, P>({
    ...spec,
    errors: [...new Set([...(spec.errors ?? []), 'agent_header_not_allowed' as const])],
    schema: { headers, ...spec.schema },
    run:
      run &&
      ((scope, input, deps) => run({ ...scope, hint: callerHint(input.req, input.principal, deps.can) }, input, deps)),
  });
};

/** A read's caller: who the request acts as (commands resolve theirs in their transaction). */
export const readCaller = (deps: RouteDeps, input: { principal: Principal; req: FastifyRequest }): Promise<Caller> =>
  resolveCaller(deps.database.db, input.principal, callerHint(input.req, input.principal, deps.can));

export type Routes = readonly DeclaredRoute<RouteDeps>[];

/** Where the scheduler's jobs live: registered only while SCHEDULER_TOKEN is set (app.ts). */
export const JOBS_PREFIX = '/internal/jobs/';
