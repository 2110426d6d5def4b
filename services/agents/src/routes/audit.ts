import { Envelope, notFound, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { AUDIT_PAGE, AuditIdParams, AuditQuery, AuditRow } from '../schemas/audit.ts';
import { findAudit, listAudit, type AuditRow as Row } from '../store/audit.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['audit'];

const view = (r: Row) => ({
  id: r.id,
  event_type: r.event_type,
  domain: r.domain as 'agent' | 'swarm' | 'skill',
  actor: r.actor,
  entity: r.entity,
  agent_id: r.agent_id,
  sentence: r.sentence,
  occurred_at: r.occurred_at.toISOString(),
  recorded_at: r.recorded_at.toISOString(),
});

/** The audit log: one sentence per agent, swarm or skill event, written after publication (never by the command). */
export const AUDIT_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/audit',
    action: 'ReadAgents',
    tags,
    summary: 'Audit rows, newest first: filters domain, event_type, actor and entity (exact), q; page mode with total',
    description:
      'A row is written once per event, after the event is published (by the outbox publisher or the bus ' +
      'listener, whichever comes first); its id is the event id. Rows about agents the caller cannot read (no role ' +
      'on the top agent) are left out of the rows and the total; a row the caller acted in stays readable to them ' +
      '(a deleted agent’s rows included). Skill rows are read by every caller. Platform admins (without ' +
      'X-Platform-As-Member) and the service token read every row.',
    query: AuditQuery,
    response: PageEnvelope(AuditRow),
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const page = pageRequest(input.query, AUDIT_PAGE.pageSize);
      const { items, total } = await listAudit(deps.database.db, caller, input.query, page);
      return input.reply.envelope(items.map(view), pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/audit/:id',
    action: 'ReadAgents',
    tags,
    summary: 'One audit row; 404 audit_row_not_found when absent or about an agent the caller cannot read',
    params: AuditIdParams,
    response: Envelope(AuditRow),
    errors: ['audit_row_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const row = await findAudit(deps.database.db, caller, input.params.id);
      if (!row) throw notFound('Audit row', 'audit_row_not_found');
      return input.reply.envelope(view(row));
    },
  }),
];
