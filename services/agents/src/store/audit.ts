import type { EventEnvelope, PageRequest } from '@platform/kit';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { Caller } from '../domain/access.ts';
import { auditEntry, domainOf } from '../domain/audit.ts';
import type { AuditLog, DB, Db } from './db.ts';

export type AuditRow = Selectable<AuditLog>;

/** Who wrote an audit row first: the outbox publisher's hook or the bus listener. */
export type AuditWriter = 'publisher' | 'listener';

const label = (a: { name: string | null; slug: string }) => (a.name ? `“${a.name}” (${a.slug})` : a.slug);

/**
 * Writes the audit rows of published events: one per agent, swarm or skill event of this service,
 * keyed by the event id, so the publisher and the bus listener (and any redelivery) leave one row
 * (AGT-345). Names are read now; a subject already gone keeps its id in the sentence.
 */
export async function recordAudit(
  db: Db,
  envelopes: readonly EventEnvelope[],
  by: AuditWriter,
  now: Date = new Date(),
): Promise<number> {
  const mine = envelopes.filter((e) => e.source === 'agents' && domainOf(e.type) !== null);
  if (mine.length === 0) return 0;
  const field = (e: EventEnvelope, k: string) => {
    const v = (e.data as Record<string, unknown> | null)?.[k];
    return typeof v === 'string' ? v : undefined;
  };
  const agentIds = [...new Set(mine.map((e) => field(e, 'agent_id')).filter((v) => v !== undefined))];
  const skillIds = [...new Set(mine.map((e) => field(e, 'skill_id')).filter((v) => v !== undefined))];
  const agents = agentIds.length
    ? await db.selectFrom('agents').select(['id', 'name', 'slug', 'top_id']).where('id', 'in', agentIds).execute()
    : [];
  const skills = skillIds.length
    ? await db.selectFrom('skills').select(['id', 'name']).where('id', 'in', skillIds).execute()
    : [];
  const agentById = new Map(agents.map((a) => [a.id, a]));
  const skillById = new Map(skills.map((s) => [s.id, s]));
  const rows = mine.flatMap((e) => {
    const agent = agentById.get(field(e, 'agent_id') ?? '');
    const entry = auditEntry(e.type, (e.data ?? {}) as Record<string, unknown>, {
      agentLabel: agent ? label(agent) : undefined,
      topId: agent?.top_id,
      skillName: skillById.get(field(e, 'skill_id') ?? '')?.name,
    });
    if (!entry) return [];
    return [
      {
        id: e.id,
        event_type: e.type,
        domain: entry.domain,
        actor: entry.actor,
        entity: entry.entity,
        agent_id: entry.agentId,
        sentence: entry.sentence,
        occurred_at: new Date(e.occurred_at),
        recorded_at: now,
        recorded_by: by,
      },
    ];
  });
  if (rows.length === 0) return 0;
  const written = await db
    .insertInto('audit_log')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return written.length;
}

/**
 * The rows a caller may read (AGT-257, AGT-258): skill rows for everyone (AGT-259); agent and
 * swarm rows when the caller owns or is a member of the top agent, or acted themselves (a deleted
 * agent's rows stay readable to whoever acted on it). A platform admin reading as admin, and the
 * service token alone (an editor's access to every agent, AGT-317), read every row.
 */
function readable(caller: Caller) {
  return (eb: ExpressionBuilder<DB, 'audit_log'>) => {
    if (caller.admin || caller.service) return eb.val(true);
    if (caller.fid === null) return eb('audit_log.agent_id', 'is', null);
    const fid = caller.fid;
    return eb.or([
      eb('audit_log.agent_id', 'is', null),
      eb('audit_log.actor', '=', fid),
      eb.exists(
        eb
          .selectFrom('agents as g')
          .select(sql`1`.as('one'))
          .whereRef('g.id', '=', 'audit_log.agent_id')
          .where('g.owner_fid', '=', fid),
      ),
      eb.exists(
        eb
          .selectFrom('agent_members as m')
          .select(sql`1`.as('one'))
          .whereRef('m.agent_id', '=', 'audit_log.agent_id')
          .where('m.principal_fid', '=', fid),
      ),
    ]);
  };
}

export interface AuditFilters {
  domain?: string;
  event_type?: string;
  actor?: string;
  entity?: string;
  q?: string;
}

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the rows the caller may read, newest first, with the total of those rows only. */
export async function listAudit(db: Db, caller: Caller, f: AuditFilters, page: PageRequest) {
  let base = db.selectFrom('audit_log').where(readable(caller));
  if (f.domain) base = base.where('domain', '=', f.domain);
  if (f.event_type) base = base.where('event_type', '=', f.event_type);
  if (f.actor) base = base.where('actor', '=', f.actor);
  if (f.entity) base = base.where('entity', '=', f.entity);
  if (f.q) {
    const like = `%${escapeLike(f.q)}%`;
    base = base.where((eb) =>
      eb.or([
        eb('sentence', 'ilike', like),
        eb('event_type', 'ilike', like),
        eb('actor', 'ilike', like),
        eb('entity', 'ilike', like),
      ]),
    );
  }
  const [items, count] = await Promise.all([
    base
      .selectAll('audit_log')
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/** One row, or undefined when absent or not readable by the caller (both answer 404: AGT-260). */
export async function findAudit(db: Db, caller: Caller, id: string): Promise<AuditRow | undefined> {
  return db.selectFrom('audit_log').selectAll().where('id', '=', id).where(readable(caller)).executeTakeFirst();
}
