import { AppError } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The property-management connector as the agents' tools use it (spec 3: move-ins, sync logs,
 * spaces, mapping upload, resync, email write-back, lease resync). The wire format is ours
 * (docs/decisions.md, "Property-management tools"): JSON under /v1/properties/{property}/…,
 * `Authorization: Bearer PM_CONNECTOR_TOKEN`, answers `{data: …}`. A failure, a hang past
 * AGENTS_UPSTREAM_TIMEOUT_MS or an answer not of that shape is 502 connector_unavailable; the
 * token is never logged or put in an error.
 */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const MoveIn = Type.Object({
  resident_code: Type.String(),
  unit_code: Type.String(),
  lease_code: Type.String(),
  move_in_date: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});
export type MoveIn = Static<typeof MoveIn>;

export const ResidentFacts = Type.Object({
  resident_code: Type.String(),
  unit_code: Type.String(),
  lease_code: Type.String(),
  space_code: Nullable(Type.String()),
  lease_status: Type.String(),
  move_in_date: Type.String(),
  portal_account: Type.Boolean(),
  door_access: Type.Boolean(),
});
export type ResidentFacts = Static<typeof ResidentFacts>;

/** One sync-log line; kinds the tools do not read (other than these two) are kept and ignored. */
export const SyncLogEntry = Type.Object({
  logged_at: Type.String(),
  kind: Type.String(),
  unit_code: Type.Optional(Type.String()),
  unit_name: Type.Optional(Type.String()),
  tenant_code: Type.Optional(Type.String()),
  lease_code: Type.Optional(Type.String()),
});
export type SyncLogEntry = Static<typeof SyncLogEntry>;

export const Space = Type.Object({ space_code: Type.String(), name: Type.String() });
export type Space = Static<typeof Space>;

export const TenantPerson = Type.Object({
  person_code: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
});
export const Tenant = Type.Object({
  tenant_code: Type.String(),
  lease_code: Type.String(),
  /** Whether writing emails back to the PMS is on for this tenant's property. */
  email_writeback: Type.Boolean(),
  persons: Type.Array(TenantPerson),
});
export type Tenant = Static<typeof Tenant>;

export interface PropertyConnector {
  /** The property's incoming residents, with their contact data (the tools keep only flags). */
  moveIns(property: string): Promise<MoveIn[]>;
  /** One resident's access facts; null when the connector knows no such resident. */
  resident(property: string, resident: string): Promise<ResidentFacts | null>;
  /** Sync-log lines logged at or after `since`. */
  syncLogs(property: string, since: Date): Promise<SyncLogEntry[]>;
  spaces(property: string): Promise<Space[]>;
  uploadMapping(property: string, unitCode: string, spaceCode: string): Promise<void>;
  resync(property: string): Promise<void>;
  /** The tenant with its persons; null when the connector knows no such tenant. */
  tenant(property: string, tenant: string): Promise<Tenant | null>;
  writeEmail(property: string, tenant: string, person: string, email: string): Promise<void>;
  resyncLease(property: string, lease: string): Promise<void>;
}

export const connectorUnavailable = (why: string) =>
  new AppError(502, 'connector_unavailable', `The property-management connector failed: ${why}`);

export const connectorNotConfigured = () =>
  new AppError(
    503,
    'connector_not_configured',
    'No property-management connector credential is configured (PM_CONNECTOR_URL, PM_CONNECTOR_TOKEN)',
  );

export interface HttpJsonOptions {
  baseUrl: string;
  token: string;
  /** AGENTS_UPSTREAM_TIMEOUT_MS. */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * One JSON call to an outside system with a bearer token: the answer's status and parsed body.
 * Network failures and timeouts go to `fail` with a reason that never holds the token.
 */
export function jsonCaller(o: HttpJsonOptions, fail: (why: string) => AppError) {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${o.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (e) {
      throw fail((e as Error).name === 'TimeoutError' ? 'timed out' : 'no answer');
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  };
}

/** `{data: T}` of a 2xx answer, checked against its schema, or `fail`. */
export function dataOf<T extends TSchema>(
  answer: { status: number; body: unknown },
  schema: T,
  what: string,
  fail: (why: string) => AppError,
): Static<T> {
  if (answer.status < 200 || answer.status > 299) throw fail(`${what}: status ${answer.status}`);
  const data = (answer.body as { data?: unknown } | undefined)?.data;
  if (!Value.Check(schema, data)) throw fail(`${what}: the answer is not of the agreed shape`);
  return data;
}

const ok = (answer: { status: number }, what: string) => {
  if (answer.status < 200 || answer.status > 299) throw connectorUnavailable(`${what}: status ${answer.status}`);
};

const seg = encodeURIComponent;

/** The connector over HTTP (PM_CONNECTOR_URL with PM_CONNECTOR_TOKEN). */
export function httpPropertyConnector(o: HttpJsonOptions): PropertyConnector {
  const call = jsonCaller(o, connectorUnavailable);
  const prop = (p: string) => `/v1/properties/${seg(p)}`;
  const read = async <T extends TSchema>(path: string, schema: T, what: string) =>
    dataOf(await call('GET', path, undefined), schema, what, connectorUnavailable);
  const readOrNull = async <T extends TSchema>(path: string, schema: T, what: string) => {
    const answer = await call('GET', path, undefined);
    return answer.status === 404 ? null : dataOf(answer, schema, what, connectorUnavailable);
  };
  return {
    moveIns: (p) => read(`${prop(p)}/move-ins`, Type.Array(MoveIn), 'move-ins'),
    resident: (p, r) => readOrNull(`${prop(p)}/residents/${seg(r)}`, ResidentFacts, 'resident'),
    syncLogs: (p, since) =>
      read(`${prop(p)}/sync-logs?since=${seg(since.toISOString())}`, Type.Array(SyncLogEntry), 'sync logs'),
    spaces: (p) => read(`${prop(p)}/spaces`, Type.Array(Space), 'spaces'),
    async uploadMapping(p, unit, space) {
      ok(await call('PUT', `${prop(p)}/unit-mappings/${seg(unit)}`, { space_code: space }), 'mapping upload');
    },
    async resync(p) {
      ok(await call('POST', `${prop(p)}/resync`, {}), 'resync');
    },
    tenant: (p, t) => readOrNull(`${prop(p)}/tenants/${seg(t)}`, Tenant, 'tenant'),
    async writeEmail(p, t, person, email) {
      ok(await call('PUT', `${prop(p)}/tenants/${seg(t)}/persons/${seg(person)}/email`, { email }), 'email write');
    },
    async resyncLease(p, lease) {
      ok(await call('POST', `${prop(p)}/leases/${seg(lease)}/resync`, {}), 'lease resync');
    },
  };
}
