import { AppError, conflict, notFound } from '@platform/kit';
import { type DirectoryResident, directoryNotConfigured, type ResidentDirectory } from '../clients/directory.ts';
import {
  connectorNotConfigured,
  connectorUnavailable,
  type PropertyConnector,
} from '../clients/property-management.ts';
import {
  CACHE_MS,
  type CacheKind,
  type FillResult,
  fillPlan,
  gapRows,
  LOG_WINDOW_MS,
  type MoveInRow,
  missingEmailRows,
  moveInRows,
  namesToLookUp,
  newYorkDay,
  normalName,
  type ResidentAccess,
  residentAccess,
  skippedTenants,
  spacesNamed,
  TOOL_LIMITS,
  type UnitMappingResult,
  unmappedUnits,
  type WriteTool,
} from '../domain/pm-tools.ts';
import type { RouteDeps } from '../routes/deps.ts';
import type { AgentRow } from '../store/agents.ts';
import { cached, callsOn, type DayKey, firstResult, lockDay, recordResult, storeCached } from '../store/pm.ts';

/**
 * The property-management tools (spec 3, AGT-152..AGT-183). Reads go through the shared cache
 * (pm_cache); the two write tools count per agent and New York day and keep the day's first
 * result per unit or tenant. Their writes run inside the transaction that holds the day's counter
 * row: the count, the first result and the connector's writes stand or fall together, so
 * concurrent calls never pass the limit or write twice (docs/decisions.md).
 */

const connectorOf = (deps: RouteDeps): PropertyConnector => {
  if (!deps.propertyConnector) throw connectorNotConfigured();
  return deps.propertyConnector;
};

const directoryOf = (deps: RouteDeps): ResidentDirectory => {
  if (!deps.directory) throw directoryNotConfigured();
  return deps.directory;
};

const dailyLimit = (tool: WriteTool) =>
  new AppError(
    429,
    'daily_limit_reached',
    `${tool} did its work ${TOOL_LIMITS[tool]} times today (New York day) for this agent; it takes more tomorrow`,
  );

/** A process's copies of cache rows it read or wrote, per database (so per app), at most LOCAL_MAX. */
const local = new WeakMap<object, Map<string, { value: unknown; fetchedAt: number }>>();
const LOCAL_MAX = 1_000;

function localOf(deps: RouteDeps) {
  let m = local.get(deps.database);
  if (!m) {
    m = new Map();
    local.set(deps.database, m);
  }
  return m;
}

function remember(deps: RouteDeps, key: string, value: unknown, fetchedAt: Date) {
  const m = localOf(deps);
  m.delete(key);
  m.set(key, { value, fetchedAt: fetchedAt.getTime() });
  if (m.size > LOCAL_MAX) m.delete(m.keys().next().value as string);
}

/**
 * The cached answer when fetched within its window, else `fetch`'s, stored for the next caller.
 * pm_cache is the cache every replica shares; this process also keeps a copy of a row it read
 * or wrote and answers from it until that row's own window ends (never longer), so a hot read
 * costs no query.
 */
async function cachedRead<T>(deps: RouteDeps, kind: CacheKind, key: string, fetch: () => Promise<T>): Promise<T> {
  const now = deps.clock();
  const since = new Date(now.getTime() - CACHE_MS[kind]);
  const localKey = `${kind}\u0000${key}`;
  const copy = localOf(deps).get(localKey);
  if (copy && copy.fetchedAt > since.getTime() && copy.fetchedAt <= now.getTime()) return copy.value as T;
  const hit = await cached<T>(deps.database.db, kind, key, since);
  if (hit !== undefined) {
    remember(deps, localKey, hit.value, hit.fetchedAt);
    return hit.value;
  }
  const value = await fetch();
  await storeCached(deps.database.db, kind, key, value, now);
  remember(deps, localKey, value, now);
  return value;
}

const logsSince = (now: Date) => new Date(now.getTime() - LOG_WINDOW_MS);

/** list_move_ins (AGT-152..AGT-157). */
export async function listMoveIns(deps: RouteDeps, property: string): Promise<MoveInRow[]> {
  const connector = connectorOf(deps);
  return cachedRead(deps, 'move_ins', property, async () => moveInRows(await connector.moveIns(property)));
}

const notInMoveIns = () => notFound('Resident among the property’s move-ins', 'resident_not_in_move_ins');

/** check_resident_access (AGT-158..AGT-160): only a resident of the move-ins, cached an hour per person. */
export async function checkResidentAccess(
  deps: RouteDeps,
  property: string,
  resident: string,
): Promise<ResidentAccess> {
  const connector = connectorOf(deps);
  return cachedRead(deps, 'resident_access', `${property}/${resident}`, async () => {
    const moveIns = await listMoveIns(deps, property);
    if (!moveIns.some((m) => m.resident_code === resident)) throw notInMoveIns();
    const facts = await connector.resident(property, resident);
    if (!facts) throw notInMoveIns();
    return residentAccess(facts);
  });
}

/** list_unit_mapping_gaps (AGT-161..AGT-165). */
export async function listUnitMappingGaps(deps: RouteDeps, property: string) {
  const connector = connectorOf(deps);
  return cachedRead(deps, 'unit_mapping_gaps', property, async () => {
    const now = deps.clock();
    const [logs, spaces] = await Promise.all([
      connector.syncLogs(property, logsSince(now)),
      connector.spaces(property),
    ]);
    return gapRows(logs, spaces, now);
  });
}

/** list_missing_pms_emails (AGT-172..AGT-176). */
export async function listMissingPmsEmails(deps: RouteDeps, property: string) {
  const connector = connectorOf(deps);
  return cachedRead(deps, 'missing_pms_emails', property, async () => {
    const now = deps.clock();
    return missingEmailRows(await connector.syncLogs(property, logsSince(now)), now);
  });
}

/**
 * The day's frame of a write tool: the first result of a repeat at once; 429 when the day's count
 * is reached (both read without a lock, so a refused call does no connector read); else the
 * checks (`prepare`, connector reads that may refuse with 409), then the transaction holding the
 * day's counter row, which looks again (a concurrent call may have finished meanwhile) before
 * `write` and records the count and the result with it.
 */
async function dailyWrite<P, R>(
  deps: RouteDeps,
  k: DayKey,
  subject: string,
  prepare: () => Promise<P>,
  write: (plan: P, at: Date) => Promise<R>,
): Promise<R> {
  const db = deps.database.db;
  const first = await firstResult<R>(db, k, subject);
  if (first !== undefined) return first;
  if ((await callsOn(db, k)) >= TOOL_LIMITS[k.tool]) throw dailyLimit(k.tool);
  const plan = await prepare();
  return db.transaction().execute(async (trx) => {
    const calls = await lockDay(trx, k);
    const again = await firstResult<R>(trx, k, subject);
    if (again !== undefined) return again;
    if (calls >= TOOL_LIMITS[k.tool]) throw dailyLimit(k.tool);
    const at = deps.clock();
    const result = await write(plan, at);
    await recordResult(trx, k, subject, result, at);
    return result;
  });
}

const dayKey = (deps: RouteDeps, agent: AgentRow, tool: WriteTool): DayKey => ({
  agentId: agent.id,
  tool,
  day: newYorkDay(deps.clock()),
});

/** apply_unit_mapping (AGT-166..AGT-171): one space of the unit's name, the unit logged unmapped in the last day. */
export async function applyUnitMapping(
  deps: RouteDeps,
  agent: AgentRow,
  property: string,
  unit: string,
): Promise<UnitMappingResult> {
  const connector = connectorOf(deps);
  const k = dayKey(deps, agent, 'apply_unit_mapping');
  return dailyWrite(
    deps,
    k,
    `${property}/${unit}`,
    async () => {
      const now = deps.clock();
      const logged = unmappedUnits(await connector.syncLogs(property, logsSince(now)), now).get(unit);
      if (!logged?.unit_name) {
        throw conflict('unit_not_logged_unmapped', 'The connector did not log this unit as unmapped in the last day');
      }
      const named = spacesNamed(await connector.spaces(property), logged.unit_name);
      if (named.length === 0) throw conflict('no_space_named', 'No space has the unit’s name');
      if (named.length > 1) throw conflict('several_spaces_named', `${named.length} spaces have the unit’s name`);
      return (named[0] as { space_code: string }).space_code;
    },
    async (space, at) => {
      await connector.uploadMapping(property, unit, space);
      await connector.resync(property);
      return {
        unit_code: unit,
        space_code: space,
        uploaded: true,
        resync_requested: true,
        applied_at: at.toISOString(),
      };
    },
  );
}

/**
 * fill_pms_emails_from_directory (AGT-177..AGT-183). Each person without an email gets the one
 * email of the same-named directory resident; a write the connector refuses is that person's
 * write_failed, and when no write went through because every one failed the call is 502 and
 * counts nothing. The lease is resynced when any email was written.
 */
export async function fillPmsEmailsFromDirectory(
  deps: RouteDeps,
  agent: AgentRow,
  property: string,
  tenantCode: string,
): Promise<FillResult> {
  const connector = connectorOf(deps);
  const directory = directoryOf(deps);
  const k = dayKey(deps, agent, 'fill_pms_emails_from_directory');
  const notLogged = () =>
    conflict('tenant_not_logged', 'The connector did not log this tenant as skipped for lack of email in the last day');
  return dailyWrite(
    deps,
    k,
    `${property}/${tenantCode}`,
    async () => {
      const now = deps.clock();
      if (!skippedTenants(await connector.syncLogs(property, logsSince(now)), now).has(tenantCode)) throw notLogged();
      const tenant = await connector.tenant(property, tenantCode);
      if (!tenant) throw notLogged();
      if (!tenant.email_writeback) {
        throw conflict('writeback_off', 'Email write-back to the property-management system is off for this tenant');
      }
      const found = new Map<string, DirectoryResident[]>();
      for (const name of namesToLookUp(tenant)) found.set(normalName(name), await directory.residentsNamed(name));
      return { tenant, plan: fillPlan(tenant, found) };
    },
    async ({ tenant, plan }, at) => {
      const outcomes: FillResult['outcomes'] = [];
      for (const p of plan) {
        if (p.outcome !== 'to_write') {
          outcomes.push({ person_code: p.person_code, outcome: p.outcome });
          continue;
        }
        const written = await connector.writeEmail(property, tenantCode, p.person_code, p.email).then(
          () => true,
          () => false,
        );
        outcomes.push({ person_code: p.person_code, outcome: written ? 'written' : 'write_failed' });
      }
      const writtenAny = outcomes.some((o) => o.outcome === 'written');
      if (!writtenAny && outcomes.some((o) => o.outcome === 'write_failed')) {
        throw connectorUnavailable('every email write was refused');
      }
      const lease_resync = writtenAny
        ? await connector.resyncLease(property, tenant.lease_code).then(
            () => 'requested' as const,
            () => 'failed' as const,
          )
        : ('not_needed' as const);
      return {
        tenant_code: tenantCode,
        lease_code: tenant.lease_code,
        outcomes,
        lease_resync,
        filled_at: at.toISOString(),
      };
    },
  );
}
