import type { Db, Principal } from '@platform/kit';

/** The auto-provisioned roster (owned by the people area): every caller is added on first sight. */
export class Roster {
  constructor(readonly db: Db) {}

  async seen(_principal: Principal, _now: Date): Promise<void> {}
}
