import type { EventEnvelope } from '@platform/kit';

/** GET /v1/audit: 50 rows a page by default, at most 200. */
export const AUDIT_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

/** A row of the audit log as the audit subscriber writes it. */
export interface AuditEntry {
  event_id: string;
  domain: string;
  event_type: string;
  source: string;
  actor: string | null;
  project_id: string | null;
  summary: string;
  occurred_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_VALUE = 80;
const MAX_LIST = 10;

/** camelCase field name as words: projectId → project, changedFields → changed fields. */
const toWords = (key: string) =>
  key
    .replace(/Id$/, '')
    .replace(/Ids$/, 's')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** Events carry a few dozen field names in all: each is put into words once (at most WORDS_MAX kept). */
const wordsOf = new Map<string, string>();
const WORDS_MAX = 1_000;
const words = (key: string) => {
  let w = wordsOf.get(key);
  if (w === undefined) {
    w = toWords(key);
    if (wordsOf.size < WORDS_MAX) wordsOf.set(key, w);
  }
  return w;
};

const short = (v: unknown): string => {
  if (v === null || v === undefined) return 'none';
  if (Array.isArray(v)) {
    const shown = v.slice(0, MAX_LIST).map(short).join(', ');
    return v.length > MAX_LIST ? `[${shown}, … ${v.length - MAX_LIST} more]` : `[${shown}]`;
  }
  if (typeof v === 'object') return '{…}';
  const s = String(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
};

/**
 * One line a person reads for an event: what happened (its type in words), by whom, then each
 * field the event carried (ids and short values: events carry nothing else). E.g.
 * "Project item created by u-1: project 0193…, item 0193…, type task, category open".
 */
export function describeEvent(e: EventEnvelope): string {
  const [domain, ...rest] = e.type.split('.');
  const what = `${domain.charAt(0).toUpperCase()}${domain.slice(1)} ${rest.join(' ').replace(/_/g, ' ')}`.trim();
  const data = (e.data && typeof e.data === 'object' ? e.data : {}) as Record<string, unknown>;
  const actor = typeof data.actor === 'string' ? data.actor : undefined;
  // The project first, when there is one: the row reads "what, by whom, where, to what".
  const fields = Object.entries(data)
    .filter(([k]) => k !== 'actor')
    .sort(([a], [b]) => Number(b === 'projectId') - Number(a === 'projectId'))
    .map(([k, v]) => `${words(k)} ${short(v)}`);
  return `${what}${actor ? ` by ${actor}` : ''}${fields.length ? `: ${fields.join(', ')}` : ''}`;
}

/** The audit row of an event read from `domain`'s topic. */
export function auditEntry(e: EventEnvelope, domain: string): AuditEntry {
  const data = (e.data && typeof e.data === 'object' ? e.data : {}) as Record<string, unknown>;
  const projectId = typeof data.projectId === 'string' && UUID.test(data.projectId) ? data.projectId : null;
  return {
    event_id: e.id,
    domain,
    event_type: e.type,
    source: e.source,
    actor: typeof data.actor === 'string' ? data.actor : null,
    project_id: projectId,
    summary: describeEvent(e),
    occurred_at: new Date(e.occurred_at),
  };
}
