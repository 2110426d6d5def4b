import type { Principal } from '@platform/kit';
import { rosterEntry } from './domain/people.ts';
import type { Db } from './store/db.ts';
import { insertSeen } from './store/people.ts';

/** Where a failed first-sight write is reported (the request's logger when given). */
export interface RosterLog {
  warn(obj: object, msg: string): void;
}

/** Past this many remembered callers the memory starts afresh (a re-sighting costs one no-op insert). */
const MAX_REMEMBERED = 100_000;

const consoleLog: RosterLog = { warn: (obj, msg) => console.warn(msg, obj) };

/**
 * The auto-provisioned roster (spec 3, People): every caller joins it the first time this
 * replica sees them, so GET /v1/people lists them without a POST. After that a sighting is one
 * Set lookup: the relay's hot path never writes. A failed write never fails the request; the
 * caller is tried again on their next request.
 */
export class Roster {
  private readonly remembered = new Set<string>();
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    readonly db: Db,
    private readonly log: RosterLog = consoleLog,
  ) {}

  async seen(principal: Principal, now: Date, log: RosterLog = this.log): Promise<void> {
    if (this.remembered.has(principal.id)) return;
    const entry = rosterEntry(principal);
    if (!entry) return;
    // Concurrent first requests of one caller share a single write.
    let write = this.writing.get(principal.id);
    if (!write) {
      write = insertSeen(this.db, entry, now)
        .then(
          () => this.remember(principal.id),
          (err: unknown) => log.warn({ err, fid: principal.id }, 'roster: could not record a caller'),
        )
        .finally(() => this.writing.delete(principal.id));
      this.writing.set(principal.id, write);
    }
    await write;
  }

  private remember(fid: string) {
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.add(fid);
  }
}
