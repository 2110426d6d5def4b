import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Can, Principal } from './auth/principal.ts';
import type { Db, KitTables } from './db/database.ts';
import { withCommit } from './db/postgres-dialect.ts';
import { AppError, badRequest, conflict, forbidden, unauthorized } from './errors.ts';
import { type AnyEvent, bindEmitter, type Emitter, type EventCatalogue } from './events.ts';

/** DECISIONS item 5: at most 255 characters of visible ASCII. */
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

export function idempotencyKey(req: FastifyRequest): string {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    throw badRequest('idempotency_key_required', 'This command needs an Idempotency-Key header');
  }
  if (!KEY_RE.test(key)) {
    throw badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1-255 visible ASCII characters');
  }
  return key;
}

/** Stable JSON: key order does not change the hash of a body. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export interface CommandResult<T> {
  status: number;
  data: T;
}

export interface CommandContext<DB extends KitTables = KitTables> {
  db: Db<DB>;
  req: FastifyRequest;
  principal: Principal;
}

/** Options of one command route; without them keys are global to the service, as always. */
export interface CommandOptions {
  /**
   * Stores the Idempotency-Key within this scope (e.g. the id of the record the command
   * changes), so each scope has its own key space: the same key under another scope is a fresh
   * command, not a 409 and not a replay.
   */
  keyScope?: string;
  /**
   * Work that must happen before the command's transaction opens (e.g. a call to storage). It
   * runs only for a new request: a replay answers from the stored result and a key reused for
   * another request answers 409 without running it.
   */
  beforeTransaction?: () => Promise<void>;
}

interface StoredCommand {
  request_hash: string;
  status: number;
  response: unknown;
}

/** The answer to a key that is already stored: its replay, or 409 when the request differs. */
function replayOrConflict<T>(prior: StoredCommand | undefined, hash: string) {
  if (!prior || prior.request_hash !== hash) {
    throw conflict(
      'idempotency_key_reused',
      'This Idempotency-Key was used for another request (different path, body, method or caller)',
    );
  }
  const data = (typeof prior.response === 'string' ? JSON.parse(prior.response) : prior.response) as T;
  return { status: prior.status, data, replayed: true };
}

const storedCommand = (db: Db<KitTables>, key: string) =>
  sql<StoredCommand>`SELECT request_hash, status, response FROM idempotency_keys WHERE key = ${key}`.execute(db);

/**
 * Runs a command once per Idempotency-Key. The key, a hash of method + URL (path ids and query)
 * + body + caller, and the response are stored in the command's own transaction:
 * - same key, same request: the stored response is replayed and nothing is written again;
 * - same key, another path, body, method or caller: 409 idempotency_key_reused;
 * - two concurrent requests with one key: both may run, but only one stores the key; the other
 *   waits on the key's unique index for the first to commit, rolls its own work back and replays
 *   the first one's result.
 * A command that fails writes nothing, its key included, so a corrected retry can run.
 * `opts.keyScope` gives each scope its own key space; `opts.beforeTransaction` runs first for a
 * new request only.
 *
 * The key is recorded optimistically (issue 22.1): the work runs first and one statement at the
 * end inserts the key with its response, the unique index deciding between a first run and a
 * replay. A new command costs that one statement instead of a claim before its work and an
 * update after, and on PostgreSQL the statement travels with the COMMIT (`withCommit`), so the
 * record costs no round trip of its own; a replay pays for a rolled-back run, which is rare. When the work fails, the key
 * is looked up once: a request already stored (a replay whose work now fails, e.g. posting an
 * entry twice, or a concurrent duplicate that hit the first one's rows) answers from the store,
 * a key used for another request answers 409 as before the work ran.
 */
export async function runCommand<T, DB extends KitTables = KitTables>(
  ctx: CommandContext<DB>,
  work: (trx: Db<DB>) => Promise<CommandResult<T>>,
  opts: CommandOptions = {},
): Promise<CommandResult<T> & { replayed: boolean }> {
  // A key is visible ASCII without spaces, so "<scope> <key>" never equals an unscoped key or
  // another scope's key.
  const key = opts.keyScope === undefined ? idempotencyKey(ctx.req) : `${opts.keyScope} ${idempotencyKey(ctx.req)}`;
  const path = ctx.req.url;
  const method = ctx.req.method;
  // The route pattern with canonical params and query: a retry that differs only in an id's
  // case or the order of query parameters is the same request.
  const hash = createHash('sha256')
    .update(
      [
        method,
        ctx.req.routeOptions.url ?? path,
        canonical(ctx.req.params ?? null),
        canonical(ctx.req.query ?? null),
        ctx.principal.id,
        canonical(ctx.req.body ?? null),
      ].join('\n'),
    )
    .digest('hex');
  const db = ctx.db as unknown as Db<KitTables>;
  if (opts.beforeTransaction) {
    // Work outside the transaction cannot be rolled back: look the key up before doing it.
    const stored = await storedCommand(db, key);
    if (stored.rows.length > 0) return replayOrConflict<T>(stored.rows[0], hash);
    await opts.beforeTransaction();
  }
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const result = await work(trx);
      // No ON CONFLICT: a key already stored fails this insert (after waiting for a concurrent
      // holder of the key to commit), the work rolls back and the catch below replays. On
      // PostgreSQL the insert travels with the COMMIT, one round trip for both.
      await trx.executeQuery(
        withCommit(
          sql`INSERT INTO idempotency_keys (key, request_hash, method, path, principal_id, status, response)
          VALUES (${key}, ${hash}, ${method}, ${path}, ${ctx.principal.id}, ${result.status}, ${JSON.stringify(result.data ?? null)})`.compile(
            trx,
          ),
        ),
      );
      return { ...result, replayed: false };
    });
  } catch (err) {
    const stored = await storedCommand(db, key);
    if (stored.rows.length > 0) return replayOrConflict<T>(stored.rows[0], hash);
    throw err;
  }
}

/** Sends a command's result in the envelope, marking replays with a header. */
export function sendCommandResult<T>(reply: FastifyReply, result: CommandResult<T> & { replayed: boolean }) {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(result.status).send(reply.envelope(result.data));
}

export { AppError };

/** A preValidation hook for command routes: the key is required before the body is looked at. */
export const requireIdempotencyKey = async (req: FastifyRequest) => {
  idempotencyKey(req);
};

/** A preValidation hook for commands whose body may be omitted entirely: it reads as {}. */
export const emptyBodyAsObject = async (req: FastifyRequest) => {
  if (req.body === undefined || req.body === null) req.body = {};
};

/**
 * What a command's work runs with: its transaction, the caller, the command's clock reading and
 * `emit`, bound to all three and typed by the service's events `E` (`EventOf<typeof events>`, issue 15.2).
 */
export interface CommandScope<DB extends KitTables = KitTables, E extends AnyEvent = AnyEvent> {
  trx: Db<DB>;
  principal: Principal;
  now: Date;
  /**
   * Writes declared events into the outbox in this transaction, stamped with the service and the
   * command's clock. (A method, so a service's narrowly typed scope accepts the kit's scope.)
   */
  emit(events: E | readonly E[]): Promise<void>;
}

/** What a route needs to run a command: the service's database, its clock and its declared events. */
export interface CommandSource<DB extends KitTables = KitTables> {
  database: { db: Db<DB> };
  clock: () => Date;
  events?: EventCatalogue;
  /**
   * Runs after every emit of a command scope, in the same transaction, with the events as
   * emitted: rows a service derives from its events (workspace's activity feed) are then written
   * once for every command, never by each command.
   */
  onEmit?: EmitHook<DB>;
}

/** A service's hook on its commands' emits (CommandSource.onEmit). */
export type EmitHook<DB extends KitTables = KitTables> = (
  scope: { trx: Db<DB>; principal: Principal; now: Date },
  events: readonly AnyEvent[],
) => Promise<void>;

/** The emitter of a source without declared events: any emit is a programming error. */
const undeclared: Emitter = async () => {
  throw new Error('This service declares no events (CommandSource.events)');
};

/** The scope of a command run by hand (outside handleCommand): `emit` bound to the source's events. */
export function commandScope<DB extends KitTables>(
  source: CommandSource<DB>,
  trx: Db<DB>,
  principal: Principal,
  now: Date,
): CommandScope<DB> {
  const bound = source.events ? bindEmitter(source.events, trx, now) : undeclared;
  const hook = source.onEmit;
  const emit: Emitter = hook
    ? async (events) => {
        await bound(events);
        await hook({ trx, principal, now }, (Array.isArray(events) ? events : [events]) as readonly AnyEvent[]);
      }
    : bound;
  return { trx, principal, now, emit };
}

/** Runs a route's command once per Idempotency-Key in one transaction and answers with its result. */
export async function handleCommand<T, DB extends KitTables = KitTables>(
  source: CommandSource<DB>,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandScope<DB>) => Promise<T>,
  status = 200,
  opts: CommandOptions = {},
) {
  const principal = req.principal as Principal;
  const now = source.clock();
  const result = await runCommand(
    { db: source.database.db, req, principal },
    async (trx) => ({ status, data: await work(commandScope(source, trx, principal, now)) }),
    opts,
  );
  return sendCommandResult(reply, result) as never;
}

/**
 * The preValidation hook of one action, from a policy's `can` (`createCan`): 401 when the policy
 * says the caller proved nothing acceptable here, 403 when it refuses a signed-in caller. Who may
 * call is settled before the body is validated, so an unauthenticated caller learns nothing about
 * the schema (401, then 403, then 422).
 */
export const allowedTo =
  <A extends string>(can: Can<A>, action: A) =>
  async (req: FastifyRequest) => {
    const d = can.decide(req.principal, action);
    if (d.allowed) return;
    throw d.refusal === 'unauthenticated' ? unauthorized(d.message) : forbidden(d.message);
  };

/**
 * The preValidation hooks of a service's routes, from its `can`: a read checks who may read; a
 * command checks who may run it, then the Idempotency-Key (401 → 403 → 400 → 422).
 */
export function routeGuards<A extends string>(can: Can<A>) {
  return {
    reader: (action: A) => [allowedTo(can, action)],
    commander: (action: A) => [allowedTo(can, action), requireIdempotencyKey],
  };
}
