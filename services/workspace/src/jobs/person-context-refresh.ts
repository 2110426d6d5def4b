import type { PeopleContext } from '../clients/intelligence.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { knownPeople, readVersions, recordRefresh, upsertRoster } from '../store/person-contexts.ts';

/** The nightly run rereads the sources of this many days (WS-490). */
export const CONTEXT_WINDOW_DAYS = 90;

export type RefreshMode = 'changed' | 'nightly';

export interface PersonContextRefreshResult {
  mode: RefreshMode;
  /** 'read', or 'unavailable' when the intelligence service could not give the roster (WS-493). */
  roster: 'read' | 'unavailable';
  /** Why the roster could not be read (unconfigured, unreachable, timeout, refused, malformed). */
  roster_error?: string;
  /** People the roster added. */
  people_added: number;
  /** People whose context was refreshed. */
  refreshed: number;
  /** People who turned personalization off: nothing read or written for them. */
  skipped_personalization_off: number;
  /** People whose sources could not be read. */
  failed: number;
  /** Sources reread. */
  sources_read: number;
  /** Assignments the nightly reread no longer shows, retired. */
  assignments_retired: number;
}

/**
 * POST /internal/jobs/person-context-refresh (WS-488…WS-493): the roster from the intelligence
 * service (new people become known), then each known person with personalization on:
 * - mode `changed` (every half hour): only sources new or updated since last read are reread;
 * - mode `nightly`: every source updated within 90 days is reread, and assignments that reread no
 *   longer shows are retired.
 * People who turned personalization off are skipped. When the roster cannot be read the answer
 * says so (roster: unavailable) and the people already known are still refreshed where possible.
 */
export async function personContextRefresh(
  deps: RouteDeps,
  intelligence: PeopleContext | undefined,
  mode: RefreshMode,
): Promise<PersonContextRefreshResult> {
  const db = deps.database.db;
  const result: PersonContextRefreshResult = {
    mode,
    roster: 'read',
    people_added: 0,
    refreshed: 0,
    skipped_personalization_off: 0,
    failed: 0,
    sources_read: 0,
    assignments_retired: 0,
  };
  const roster = intelligence ? await intelligence.roster() : ({ ok: false, reason: 'unconfigured' } as const);
  if (roster.ok) result.people_added = await upsertRoster(db, roster.data.people, deps.clock());
  else {
    result.roster = 'unavailable';
    result.roster_error = roster.reason;
  }
  for (const person of await knownPeople(db)) {
    if (!person.personalization) {
      result.skipped_personalization_off += 1;
      continue;
    }
    if (!intelligence) {
      result.failed += 1;
      continue;
    }
    const listed = await intelligence.personSources({ person_id: person.person_id, window_days: CONTEXT_WINDOW_DAYS });
    if (!listed.ok) {
      result.failed += 1;
      continue;
    }
    const now = deps.clock();
    const since = now.getTime() - CONTEXT_WINDOW_DAYS * 86_400_000;
    const versions = await readVersions(db, person.person_id);
    const inWindow = listed.data.sources
      .map((s) => ({ source_id: s.source_id, kind: s.kind, updated_at: new Date(s.updated_at) }))
      .filter((s) => !Number.isNaN(s.updated_at.getTime()) && s.updated_at.getTime() >= since);
    const toRead =
      mode === 'nightly'
        ? inWindow
        : inWindow.filter((s) => (versions.get(s.source_id) ?? -1) < s.updated_at.getTime());
    let assignments: { assignment_id: string; project_id: string; role: string }[] = [];
    if (toRead.length > 0 || mode === 'nightly') {
      const read = await intelligence.personContext({
        person_id: person.person_id,
        source_ids: toRead.map((s) => s.source_id),
      });
      if (!read.ok) {
        result.failed += 1;
        continue;
      }
      assignments = read.data.assignments;
    }
    const { retired } = await recordRefresh(db, person.person_id, toRead, assignments, mode === 'nightly', now);
    result.refreshed += 1;
    result.sources_read += toRead.length;
    result.assignments_retired += retired;
  }
  return result;
}
