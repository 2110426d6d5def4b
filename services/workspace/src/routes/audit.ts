import { CursorEnvelope, cursorMeta, decodeCursor, unprocessable } from '@platform/kit';
import { AUDIT_PAGE } from '../domain/audit.ts';
import { AuditListQuery, AuditRow } from '../schemas/audit.ts';
import { listAuditRows } from '../store/audit.ts';
import { type Routes, route } from './deps.ts';

/** The row id a cursor of GET /v1/audit carries (422 invalid_cursor for anything else). */
function beforeId(after: string | undefined): string | undefined {
  if (after === undefined) return undefined;
  const key = decodeCursor(after);
  const id = key?.[0];
  if (key?.length !== 1 || typeof id !== 'string' || !/^[0-9]{1,15}$/.test(id)) {
    throw unprocessable('invalid_cursor', 'The after cursor is not one this service issued', 'querystring/after');
  }
  return id;
}

/** The workspace audit log (issue 19). */
export const auditRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/audit',
    action: 'read_audit',
    tags: ['audit'],
    summary: 'Workspace audit rows, newest first, cursor paged (platform admins only; anyone else 403)',
    description:
      'One human-readable row per event the workspace published on any domain (project, conversation, ' +
      'evidence, fact, file, notification) and per message read from the intelligence knowledge queue ' +
      '(domain knowledge), written by the `audit` subscriber of each topic; a redelivered event writes no ' +
      'second row. Rows carry what events carry: ids and short values, never personal data (audit reads ' +
      'only the core topics). Filters: domain, type (an event type), since (occurred at or after), ' +
      'project_id. Pass meta.pagination.nextCursor back as after (50 a page, at most 200); null on the last page.',
    query: AuditListQuery,
    response: CursorEnvelope(AuditRow),
    errors: ['invalid_cursor'],
    handler: async ({ query, reply }, deps) => {
      const before = beforeId(query.after);
      const limit = query.limit ?? AUDIT_PAGE.pageSize;
      const page = await listAuditRows(
        deps.database.db,
        {
          domain: query.domain,
          type: query.type,
          since: query.since ? new Date(query.since) : undefined,
          projectId: query.project_id,
        },
        before,
        limit,
      );
      return reply.envelope(page.items, cursorMeta(limit, page.nextId === null ? null : [page.nextId]));
    },
  }),
];
