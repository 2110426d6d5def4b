import { AppError } from '@platform/kit';
import type { Session } from '../scope/databases.ts';

/**
 * All SQL of the outbox surface. Services keep their outbox in their own schema (the kit's
 * `outbox` table), so a service here is a schema holding one; names are checked against the
 * catalog of the database before they are quoted into a statement.
 */

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface OutboxCounts {
  service: string;
  total: number;
  pending: number;
  failing: number;
  published: number;
  oldest_pending_at: string | null;
  last_published_at: string | null;
}

export interface OutboxEventRow {
  id: number;
  event_id: string;
  event_type: string;
  subject: string;
  restricted: boolean;
  occurred_at: string;
  published_at: string | null;
  attempts: number;
  last_error: string | null;
  republished: number;
  /** The envelope as it goes on the bus; null for a restricted (personal data) event. */
  payload: unknown;
}

/** Every schema with an outbox table (the services of the database), by name. */
export async function outboxSchemas(s: Session): Promise<string[]> {
  const r = await s.run(
    `SELECT table_schema FROM information_schema.tables
     WHERE table_name = 'outbox' AND table_type = 'BASE TABLE' ORDER BY table_schema`,
  );
  return r.rows.map((row) => String(row[0])).filter((n) => SCHEMA_RE.test(n));
}

export const outboxNotFound = (service: string) =>
  new AppError(404, 'outbox_not_found', `No service ${service} with an outbox in this database`);

/** The service's schema name, once the database confirms it has an outbox. */
export async function checkedSchema(s: Session, service: string): Promise<string> {
  if (!SCHEMA_RE.test(service) || !(await outboxSchemas(s)).includes(service)) throw outboxNotFound(service);
  return service;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** Counts of every service's outbox in one statement (one pass over each table). */
export async function outboxCounts(s: Session): Promise<OutboxCounts[]> {
  const schemas = await outboxSchemas(s);
  if (schemas.length === 0) return [];
  const parts = schemas.map(
    (schema, i) => `SELECT $${i + 1}::text AS service, count(*) AS total,
      count(*) FILTER (WHERE published_at IS NULL) AS pending,
      count(*) FILTER (WHERE published_at IS NULL AND last_error IS NOT NULL) AS failing,
      min(occurred_at) FILTER (WHERE published_at IS NULL) AS oldest_pending_at,
      max(published_at) AS last_published_at
      FROM ${ident(schema)}.outbox`,
  );
  const r = await s.run(parts.join('\nUNION ALL\n'), schemas);
  return r.rows.map(([service, total, pending, failing, oldest, last]) => ({
    service: String(service),
    total: num(total),
    pending: num(pending),
    failing: num(failing),
    published: num(total) - num(pending),
    oldest_pending_at: time(oldest),
    last_published_at: time(last),
  }));
}

export type EventStatus = 'all' | 'pending' | 'published' | 'failing';

const STATUS_WHERE: Record<EventStatus, string> = {
  all: 'TRUE',
  pending: 'published_at IS NULL',
  published: 'published_at IS NOT NULL',
  failing: 'published_at IS NULL AND last_error IS NOT NULL',
};

const EVENT_COLUMNS = `id, event_id::text, event_type, subject, restricted, occurred_at, published_at, attempts,
  last_error, republished, CASE WHEN restricted THEN NULL ELSE payload END`;

function eventRow(row: unknown[]): OutboxEventRow {
  const [id, event_id, event_type, subject, restricted, occurred_at, published_at, attempts, last_error, rep, payload] =
    row;
  return {
    id: Number(id),
    event_id: String(event_id),
    event_type: String(event_type),
    subject: String(subject),
    restricted: restricted === true || restricted === 't',
    occurred_at: time(occurred_at) as string,
    published_at: time(published_at),
    attempts: num(attempts),
    last_error: (last_error as string | null) ?? null,
    republished: num(rep),
    payload: typeof payload === 'string' ? JSON.parse(payload) : (payload ?? null),
  };
}

/** The most recent events of one outbox, newest first, below the `before` row id when given. */
export async function recentEvents(
  s: Session,
  schema: string,
  o: { status: EventStatus; limit: number; before?: number },
): Promise<OutboxEventRow[]> {
  const params: unknown[] = [o.limit];
  let where = STATUS_WHERE[o.status];
  if (o.before !== undefined) {
    params.push(o.before);
    where += ` AND id < $2`;
  }
  const r = await s.run(
    `SELECT ${EVENT_COLUMNS} FROM ${ident(schema)}.outbox WHERE ${where} ORDER BY id DESC LIMIT $1`,
    params,
  );
  return r.rows.map(eventRow);
}

/** One event by its id, or undefined. */
export async function eventById(s: Session, schema: string, eventId: string): Promise<OutboxEventRow | undefined> {
  const r = await s.run(`SELECT ${EVENT_COLUMNS} FROM ${ident(schema)}.outbox WHERE event_id = $1::uuid`, [eventId]);
  return r.rows[0] ? eventRow(r.rows[0]) : undefined;
}

/**
 * The republish: published_at cleared (OPS-059), any claim and error dropped, and the count
 * raised, so the service's own publisher sends the row again under a new bus message id. The
 * console itself publishes nothing (OPS-061).
 */
export async function republish(s: Session, schema: string, eventId: string): Promise<OutboxEventRow | undefined> {
  const r = await s.run(
    `UPDATE ${ident(schema)}.outbox
     SET published_at = NULL, claimed_until = NULL, claim_token = NULL, last_error = NULL,
         republished = republished + 1
     WHERE event_id = $1::uuid
     RETURNING ${EVENT_COLUMNS}`,
    [eventId],
  );
  return r.rows[0] ? eventRow(r.rows[0]) : undefined;
}
