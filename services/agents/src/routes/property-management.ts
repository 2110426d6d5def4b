import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import {
  applyUnitMapping,
  checkResidentAccess,
  fillPmsEmailsFromDirectory,
  listMissingPmsEmails,
  listMoveIns,
  listUnitMappingGaps,
} from '../commands/pm-tools.ts';
import type { ErrorCode } from '../errors.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  FillEmailsBody,
  FillResult,
  GapRow,
  MissingEmailRow,
  MoveInRow,
  PropertyBody,
  ResidentAccess,
  ResidentBody,
  UnitMappingBody,
  UnitMappingResult,
} from '../schemas/pm.ts';
import { agentFor } from '../store/access.ts';
import { type AgentRow, findAgent } from '../store/agents.ts';
import { callerHint, type RouteDeps, type Routes, readCaller, route } from './deps.ts';

const tags = ['property-management'];

// The read tools answer from the shared cache: their data is serialized once per cached answer
// (reply.envelopeCached, by the response each declares).
const MoveInRows = Type.Array(MoveInRow);
const GapRows = Type.Array(GapRow);
const MissingEmailRows = Type.Array(MissingEmailRow);

const isSelf = (deps: RouteDeps, input: ToolInput) => {
  const p = input.principal;
  const service = p.kind === 'service' || p.via === 'service_token';
  return service && callerHint(input.req, p, deps.can).agentId?.toLowerCase() === input.params.id.toLowerCase();
};

type ToolInput = Parameters<typeof readCaller>[1] & { params: { id: string } };

/**
 * The agent whose tool runs; the caller needs the editor role on it. The harness calls with the
 * service token and X-Platform-Agent-Id naming the agent itself: acting as its top agent's owner,
 * it is the owner, so the agent's existence decides (the answer resolveCaller and agentFor give,
 * without their three reads). Any other caller goes through the full check.
 */
const toolAgent = async (deps: RouteDeps, input: ToolInput): Promise<AgentRow> => {
  const id = input.params.id.toLowerCase();
  if (isSelf(deps, input)) {
    const self = await findAgent(deps.database.db, id);
    if (self) {
      seenOf(deps).set(id, deps.clock().getTime());
      return self;
    }
  }
  const caller = await readCaller(deps, input);
  return (await agentFor(deps.database.db, caller, input.params.id, 'editor')).agent;
};

/**
 * A read tool's access: as toolAgent, but an agent acting on itself that this process read in
 * the last SELF_SEEN_MS is not read again. Read tools answer from the service-wide cache, so a
 * call in the seconds after the agent was deleted learns nothing its owner could not read.
 */
const readToolAccess = async (deps: RouteDeps, input: ToolInput): Promise<void> => {
  const at = seenOf(deps).get(input.params.id.toLowerCase());
  const now = deps.clock().getTime();
  if (at !== undefined && at <= now && now - at < SELF_SEEN_MS && isSelf(deps, input)) return;
  await toolAgent(deps, input);
};

/** Agents read acting on themselves, per database (so per app), at most SELF_SEEN_MAX: when each was read. */
const selfSeen = new WeakMap<object, Map<string, number>>();
const SELF_SEEN_MS = 5_000;
const SELF_SEEN_MAX = 10_000;
const seenOf = (deps: RouteDeps) => {
  let seen = selfSeen.get(deps.database);
  if (!seen) {
    seen = new Map();
    selfSeen.set(deps.database, seen);
  }
  if (seen.size > SELF_SEEN_MAX) seen.clear();
  return seen;
};

const access: ErrorCode[] = ['agent_not_found', 'insufficient_role'];
const connector: ErrorCode[] = ['connector_not_configured', 'connector_unavailable'];

const TOOL_NOTE =
  ' A tool call, not a command: no Idempotency-Key is taken (the reads change nothing; the write tools answer a ' +
  'repeat in the day with the first result). Needs the editor role on the agent; the harness sends the service ' +
  'token with X-Platform-Agent-Id.';

/** The property-management tools (spec 3, Agents endpoints; AGT-152..AGT-183). */
export const PROPERTY_MANAGEMENT_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/move-ins',
    action: 'RunAgents',
    tags,
    summary: 'list_move_ins: one property’s incoming residents by codes, with email and phone flags',
    description:
      'Body {data: {property_code}} -> {data: [{resident_code, unit_code, lease_code, move_in_date, email: {present, ' +
      'valid, shared}, phone: {present, valid, shared}}]}: no names, addresses or numbers. Cached 30 minutes per ' +
      'property. No connector credential: 503 connector_not_configured; a failed read: 502 connector_unavailable.' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: PropertyBody,
    response: Envelope(MoveInRows),
    errors: [...access, ...connector],
    handler: async (input, deps) => {
      await readToolAccess(deps, input);
      return input.reply.envelopeCached(await listMoveIns(deps, input.body.data.property_code));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/resident-access',
    action: 'RunAgents',
    tags,
    summary: 'check_resident_access: one incoming resident’s read-only access facts, by codes',
    description:
      'Body {data: {property_code, resident_code}} -> {data: {resident_code, unit_code, lease_code, space_code, ' +
      'lease_status, move_in_date, portal_account, door_access}}. A resident not among the property’s move-ins: 404 ' +
      'resident_not_in_move_ins. Cached an hour per person. 503 and 502 as for move-ins.' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: ResidentBody,
    response: Envelope(ResidentAccess),
    errors: [...access, ...connector, 'resident_not_in_move_ins'],
    handler: async (input, deps) => {
      await readToolAccess(deps, input);
      const { property_code, resident_code } = input.body.data;
      return input.reply.envelopeCached(await checkResidentAccess(deps, property_code, resident_code));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/unit-mapping-gaps',
    action: 'RunAgents',
    tags,
    summary: 'list_unit_mapping_gaps: units the connector logged unmapped in the last day, with candidate spaces',
    description:
      'Body {data: {property_code}} -> {data: [{unit_code, logged_at, candidate_space_codes}]}: from the sync logs of ' +
      'the last 24 hours, one row per unit; candidates are the spaces that have the unit’s name; codes only. Cached ' +
      '30 minutes per property. 503 without a connector credential, 502 on a failed read.' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: PropertyBody,
    response: Envelope(GapRows),
    errors: [...access, ...connector],
    handler: async (input, deps) => {
      await readToolAccess(deps, input);
      return input.reply.envelopeCached(await listUnitMappingGaps(deps, input.body.data.property_code));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/unit-mapping',
    action: 'RunAgents',
    tags,
    summary: 'apply_unit_mapping: upload the mapping of a unit to the one space of its name, then resync',
    description:
      'Body {data: {property_code, unit_code}} -> {data: {unit_code, space_code, uploaded, resync_requested, ' +
      'applied_at}}. 409 unit_not_logged_unmapped when the unit was not logged unmapped in the last 24 hours, ' +
      'no_space_named or several_spaces_named unless exactly one space has its name; nothing is uploaded then. A ' +
      'repeat for the unit in the same New York day answers the first result and uploads nothing; after 10 mappings ' +
      'in that day by this agent: 429 daily_limit_reached. 503 without a connector credential; 502 when the connector ' +
      'fails (nothing counted).' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: UnitMappingBody,
    response: Envelope(UnitMappingResult),
    errors: [
      ...access,
      ...connector,
      'unit_not_logged_unmapped',
      'no_space_named',
      'several_spaces_named',
      'daily_limit_reached',
    ],
    handler: async (input, deps) => {
      const agent = await toolAgent(deps, input);
      const { property_code, unit_code } = input.body.data;
      return input.reply.envelope(await applyUnitMapping(deps, agent, property_code, unit_code));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/missing-pms-emails',
    action: 'RunAgents',
    tags,
    summary: 'list_missing_pms_emails: tenants the connector skipped in the last day for lack of email',
    description:
      'Body {data: {property_code}} -> {data: [{tenant_code, lease_code, logged_at}]}: from the sync logs of the last ' +
      '24 hours, one row per tenant, codes only. Cached 30 minutes per property. 503 without a connector ' +
      'credential, 502 on a failed read.' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: PropertyBody,
    response: Envelope(MissingEmailRows),
    errors: [...access, ...connector],
    handler: async (input, deps) => {
      await readToolAccess(deps, input);
      return input.reply.envelopeCached(await listMissingPmsEmails(deps, input.body.data.property_code));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/pms-emails-from-directory',
    action: 'RunAgents',
    tags,
    summary:
      'fill_pms_emails_from_directory: write each missing email of a tenant from the same-named directory resident',
    description:
      'Body {data: {property_code, tenant_code}} -> {data: {tenant_code, lease_code, outcomes: [{person_code, ' +
      'outcome}], lease_resync, filled_at}}: one outcome per person of the tenant (already_has_email, written, ' +
      'no_directory_match, several_directory_matches, directory_email_invalid, write_failed), never an email. The ' +
      'lease is resynced when any email was written. 409 tenant_not_logged when the tenant was not logged as skipped ' +
      'for lack of email in the last 24 hours, writeback_off when write-back is off; nothing is written then. A ' +
      'repeat for the tenant in the same New York day answers the first result and writes nothing; after 30 in that ' +
      'day by this agent: 429 daily_limit_reached. 503 without the connector or directory credential; 502 when ' +
      'either fails before any email was written (nothing counted).' +
      TOOL_NOTE,
    command: false,
    params: AgentIdParams,
    body: FillEmailsBody,
    response: Envelope(FillResult),
    errors: [
      ...access,
      ...connector,
      'directory_not_configured',
      'directory_unavailable',
      'tenant_not_logged',
      'writeback_off',
      'daily_limit_reached',
    ],
    handler: async (input, deps) => {
      const agent = await toolAgent(deps, input);
      const { property_code, tenant_code } = input.body.data;
      return input.reply.envelope(await fillPmsEmailsFromDirectory(deps, agent, property_code, tenant_code));
    },
  }),
];
