import type { BlobStorage } from '@platform/kit';
import { inFlightSince, mayBeOrphan, ORPHAN_BATCH_SIZE } from './domain/orphans.ts';
import type { Db } from './store/db.ts';
import { type BlobLocation, dropStaleMarks, lockBlobNames, orphansAmong } from './store/orphans.ts';

export interface OrphanReaperOptions {
  /** DOCUMENTS_ORPHAN_GRACE_HOURS: a blob last written longer ago than this may be reaped. */
  graceHours: number;
  /** Time between runs (DOCUMENTS_ORPHAN_REAP_INTERVAL_MINUTES). */
  intervalMs: number;
  /** Blobs listed, decided and deleted per batch (default ORPHAN_BATCH_SIZE). */
  batchSize?: number;
  clock?: () => Date;
  /** A run that failed, or (with `where`) one container of a run that could not be cleaned. */
  onError?: (e: Error, where?: { account: string; container: string }) => void;
  /** Called after each run with what it did. */
  onRun?: (run: ReapRun) => void;
}

export interface ReapRun {
  /** Blobs listed in every configured container. */
  listed: number;
  /** The blobs deleted. */
  removed: BlobLocation[];
  /** Batches that asked the database (one transaction each). */
  batches: number;
  /** In-flight marks forgotten because their registration never ended. */
  staleMarks: number;
  /** Containers that could not be listed or cleaned this time (storage unreachable). */
  failed: { account: string; container: string }[];
}

/**
 * Removes orphan blobs (spec 1, Documents SAS rule 3) from every container of the storage
 * catalog, batch by batch: a listing page, then one transaction that locks the page's candidate
 * names, asks the database once which of them are orphans (domain/orphans.ts) and deletes those
 * from storage while still holding their locks, so no registration can start on one in between.
 * A container that cannot be reached is skipped until the next run.
 */
export class OrphanReaper {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<ReapRun> | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Db,
    private readonly storage: BlobStorage,
    private readonly opts: OrphanReaperOptions,
  ) {
    this.clock = opts.clock ?? (() => new Date());
  }

  /** Runs at once, then every interval until stopped; the timer never keeps the process alive. */
  start() {
    this.stopped = false;
    const tick = async () => {
      await this.run().then(
        (r) => this.opts.onRun?.(r),
        (e) => this.opts.onError?.(e),
      );
      // stop() may have come while this run went on: then no other is scheduled.
      if (this.stopped) return;
      this.timer = setTimeout(tick, this.opts.intervalMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  /** No further runs; waits for the one under way (its open batch ends, its locks go). */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
  }

  /** One pass over every container now (a pass already under way is joined, not doubled). */
  async run(): Promise<ReapRun> {
    if (this.running) return this.running;
    this.running = this.reapAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async reapAll(): Promise<ReapRun> {
    const now = this.clock();
    const since = inFlightSince(now);
    const run: ReapRun = { listed: 0, removed: [], batches: 0, staleMarks: 0, failed: [] };
    run.staleMarks = await dropStaleMarks(this.db, since);
    // Catalog accounts may share a storage account (the local catalog does): each real
    // container is listed once.
    const seen = new Set<string>();
    for (const account of this.storage.catalog.accounts) {
      for (const container of account.containers) {
        if (this.stopped) return run;
        const where = `${account.endpoint} ${account.account_name} ${container}`;
        if (seen.has(where)) continue;
        seen.add(where);
        try {
          await this.reapContainer(account.name, container, now, since, run);
        } catch (e) {
          run.failed.push({ account: account.name, container });
          this.opts.onError?.(e as Error, { account: account.name, container });
        }
      }
    }
    return run;
  }

  private async reapContainer(account: string, container: string, now: Date, since: Date, run: ReapRun) {
    const pageSize = this.opts.batchSize ?? ORPHAN_BATCH_SIZE;
    for await (const page of this.storage.listBlobs(account, container, { pageSize })) {
      run.listed += page.length;
      const candidates = page
        .filter((b) => mayBeOrphan(b, now, this.opts.graceHours))
        .map((b) => ({ account, container, name: b.name }));
      if (candidates.length === 0) continue;
      run.batches++;
      const removed = await this.db.transaction().execute(async (trx) => {
        const locked = await lockBlobNames(
          trx,
          candidates.map((c) => c.name),
        );
        const orphans = await orphansAmong(
          trx,
          candidates.filter((c) => locked.has(c.name)),
          since,
        );
        for (const o of orphans) await this.storage.deleteBlob(o.account, o.container, o.name);
        return orphans;
      });
      run.removed.push(...removed);
      if (this.stopped) return;
    }
  }
}
