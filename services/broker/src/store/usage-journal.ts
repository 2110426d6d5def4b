/**
 * The usage journal: a relayed call's usage, appended to a file before the end of its reply is
 * sent, so the reply's end waits for one write(2) (microseconds) instead of a database commit
 * (issue 13, item 2; docs/decisions.md, "When a relayed row is written"). The rows still reach
 * the database by group commit; a broker that dies before they do writes them at its next start
 * from the journal, which is what makes the reply durable: a written file survives the process
 * (the kernel holds it), as a commit without a WAL flush survives the broker on PostgreSQL.
 *
 * The journal is a folder of segment files of one JSON line per call, appended in recording
 * order. The recorder commits calls in the same order and tells the journal how many it has
 * committed; a segment whose calls are all committed, and that is no longer the one written to,
 * is deleted. The folder belongs to one broker process: a lock file holding its pid refuses a
 * second live one (a dead one's lock is taken over with its segments).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { CompletedCall } from '../relay/ports.ts';

const LOCK = 'lock';
const SEGMENT = /^(\d{16})\.ndjson$/;

/** A journal folder already held by a live broker process. */
export class JournalLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `the usage journal ${dir} belongs to a running broker (pid ${pid}); give each broker its own PLATFORM_DATA_DIR, or set BROKER_USAGE_JOURNAL=0`,
    );
  }
}

interface Segment {
  seq: number;
  fd: number | undefined;
  /** Calls appended to it, and how many of them are committed. */
  appended: number;
  committed: number;
}

export interface JournalOptions {
  /** Calls per segment before the next is started. */
  segmentCalls?: number;
}

/** Folders open in this process (a second broker in it on the same folder is refused too). */
const openHere = new Set<string>();

const segmentName = (seq: number) => `${String(seq).padStart(16, '0')}.ndjson`;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A journaled line back as the call it was: its instants are Dates again. */
function reviveCall(line: string): CompletedCall {
  const call = JSON.parse(line) as CompletedCall;
  call.usage.occurred_at = new Date(call.usage.occurred_at);
  return call;
}

export class UsageJournal {
  private segments: Segment[] = [];
  private readonly segmentCalls: number;

  private constructor(
    readonly dir: string,
    private nextSeq: number,
    o: JournalOptions,
  ) {
    this.segmentCalls = o.segmentCalls ?? 10_000;
  }

  /**
   * Opens the folder for this process: takes its lock and returns the calls a previous process
   * journaled (every line of its segments, in order; a line cut short by a crash mid-write was
   * never acknowledged and is skipped), with `finish` to delete those segments once the calls are
   * in the database.
   */
  static open(
    dir: string,
    o: JournalOptions = {},
  ): { journal: UsageJournal; left: CompletedCall[]; finish: () => void } {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, LOCK);
    if (openHere.has(resolve(dir))) throw new JournalLockedError(dir, process.pid);
    if (existsSync(lock)) {
      const pid = Number(readFileSync(lock, 'utf8'));
      if (pid !== process.pid && Number.isInteger(pid) && pid > 0 && alive(pid)) throw new JournalLockedError(dir, pid);
    }
    writeFileSync(lock, String(process.pid));
    openHere.add(resolve(dir));
    const old = readdirSync(dir)
      .map((f) => SEGMENT.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ file: join(dir, m[0]), seq: Number(m[1]) }))
      .sort((a, b) => a.seq - b.seq);
    const left: CompletedCall[] = [];
    for (const s of old) {
      for (const line of readFileSync(s.file, 'utf8').split('\n')) {
        if (line === '') continue;
        try {
          left.push(reviveCall(line));
        } catch {
          // The last line of a process killed while writing it: its reply never ended.
        }
      }
    }
    const journal = new UsageJournal(dir, (old.at(-1)?.seq ?? 0) + 1, o);
    const finish = () => {
      for (const s of old) rmSync(s.file, { force: true });
    };
    return { journal, left, finish };
  }

  /** Appends a call; once this returns, the call survives this process. */
  append(call: CompletedCall): void {
    this.appendAll([call]);
  }

  /**
   * Appends calls in order, with one write(2) per segment they fill (the recorder's calls of one
   * turn of the event loop together); once this returns, every one of them survives this process.
   */
  appendAll(calls: readonly CompletedCall[]): void {
    for (let at = 0; at < calls.length; ) {
      let current = this.segments.at(-1);
      if (!current || current.fd === undefined || current.appended >= this.segmentCalls) {
        current = this.startSegment();
      }
      const n = Math.min(calls.length - at, this.segmentCalls - current.appended);
      let lines = '';
      for (let i = at; i < at + n; i++) lines += `${JSON.stringify(calls[i])}\n`;
      writeSync(current.fd as number, lines);
      current.appended += n;
      at += n;
    }
  }

  /** The next `n` calls in appending order are committed: segments wholly committed are deleted. */
  committed(n: number): void {
    let left = n;
    while (left > 0) {
      const s = this.segments[0];
      if (!s) return;
      const take = Math.min(left, s.appended - s.committed);
      s.committed += take;
      left -= take;
      if (s.committed < s.appended) return;
      // A full segment, or any wholly committed one once a newer one is being written.
      if (s.appended < this.segmentCalls && this.segments.length === 1) return;
      this.dropFirst();
    }
  }

  /** Closes the journal: segments wholly committed are deleted, others stay for the next start. */
  close(): void {
    for (const s of this.segments) {
      if (s.fd !== undefined) closeSync(s.fd);
      s.fd = undefined;
      if (s.committed >= s.appended) unlinkSync(join(this.dir, segmentName(s.seq)));
    }
    this.segments = [];
    rmSync(join(this.dir, LOCK), { force: true });
    openHere.delete(resolve(this.dir));
  }

  private startSegment(): Segment {
    const s: Segment = { seq: this.nextSeq++, fd: undefined, appended: 0, committed: 0 };
    s.fd = openSync(join(this.dir, segmentName(s.seq)), 'a');
    const previous = this.segments.at(-1);
    this.segments.push(s);
    if (previous?.fd !== undefined) {
      closeSync(previous.fd);
      previous.fd = undefined;
    }
    // A wholly committed previous segment goes now (its calls were counted before this one began).
    while (
      this.segments.length > 1 &&
      (this.segments[0] as Segment).committed >= (this.segments[0] as Segment).appended
    ) {
      this.dropFirst();
    }
    return s;
  }

  private dropFirst() {
    const s = this.segments.shift() as Segment;
    if (s.fd !== undefined) closeSync(s.fd);
    unlinkSync(join(this.dir, segmentName(s.seq)));
  }
}
