import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnblockRequest } from '../src/schemas/unblock-requests.ts';
import { EDITOR, fid, type Harness, harness, tag } from './harness.ts';
import { asScheduler, SCHEDULER } from './jobs-helpers.ts';

let h: Harness;
/** The hook the job calls between reading its candidates and sending (set per test). */
let beforeSend: ((ids: readonly string[]) => Promise<void>) | undefined;
beforeAll(async () => {
  h = await harness({
    now: '2025-06-16T15:00:00Z',
    app: {
      schedulerToken: SCHEDULER,
      jobs: {
        summarizer: false,
        questionMessaging: false,
        beforeReminders: (ids) => beforeSend?.(ids) ?? Promise.resolve(),
      },
    },
  });
});
afterAll(() => h.close_());

/** A project with a fresh recipient (a viewer) and a task to wait on. */
async function setting() {
  const p = await h.team();
  const t = await h.task(p.id);
  const recipient = `asked-${tag()}@ws.test`;
  await h.member(p.id, recipient, 'viewer');
  const ask = async (data: Record<string, unknown> = {}) => {
    const r = await h.call('POST', `/v1/projects/${p.id}/unblock-requests`, EDITOR, {
      data: {
        recipient: fid(recipient),
        needed: 'Which bank account should the refund go to?',
        why_now: 'The refund run closes on Friday',
        waiting_record: { type: 'task', id: t.id },
        answer_kind: 'explanation',
        ...data,
      },
    });
    h.expectStatus('unblock request', r, 201);
    return r.data as UnblockRequest;
  };
  const act = async (id: string, data: Record<string, unknown>, as: string) => {
    const r = await h.call('POST', `/v1/projects/${p.id}/unblock-requests/${id}`, as, { data });
    h.expectStatus(String(data.action), r, 200);
  };
  return { p, recipient, ask, act };
}

const notices = async (recipient: string) =>
  h.db
    .selectFrom('notifications')
    .select(['kind', 'subject_id', 'project_id', 'count', 'actor'])
    .where('recipient', '=', fid(recipient))
    .where('kind', 'like', 'unblock.%')
    .orderBy('created_at')
    .orderBy('kind')
    .orderBy('subject_id')
    .execute();

const run = async () => {
  const r = await h.call('POST', '/internal/jobs/unblock-reminders', asScheduler);
  h.expectStatus('unblock-reminders', r, 200);
  return r.data as { day: string; reminders: number; counts: number; skipped: number };
};

describe('unblock-reminders', () => {
  it('19 WS-482 one notice per request due today or tomorrow, per window (the day before, then the day)', async () => {
    h.setNow('2025-06-16T15:00:00Z'); // Monday in New York
    const { p, recipient, ask } = await setting();
    const today = await ask({ due_on: '2025-06-16' });
    const tomorrow = await ask({ due_on: '2025-06-17' });
    await ask({ due_on: '2025-06-18' }); // later: no due notice yet
    await ask({}); // no due date
    const first = await run();
    expect(first.day).toBe('2025-06-16');
    const dueNotices = (await notices(recipient)).filter((n) => n.kind !== 'unblock.daily_count');
    expect(dueNotices).toEqual(
      [
        { kind: 'unblock.due_today', subject_id: today.id, project_id: p.id, count: null, actor: null },
        { kind: 'unblock.due_tomorrow', subject_id: tomorrow.id, project_id: p.id, count: null, actor: null },
      ].sort((a, b) => a.kind.localeCompare(b.kind)),
    );
    // The next day: the one due then gets its due_today notice; the one due the day after its due_tomorrow.
    h.setNow('2025-06-17T15:00:00Z');
    await run();
    const next = (await notices(recipient)).filter((n) => n.kind !== 'unblock.daily_count').slice(2);
    expect(next.map((n) => n.kind).sort()).toEqual(['unblock.due_today', 'unblock.due_tomorrow']);
    expect(next.find((n) => n.kind === 'unblock.due_today')?.subject_id).toBe(tomorrow.id);
  });

  it('19 WS-483 one daily count notice per person with a card on the short queue, with the number', async () => {
    h.setNow('2025-06-20T15:00:00Z');
    const a = await setting();
    const b = await setting();
    await a.ask({});
    await a.ask({ due_on: '2025-07-30' });
    await a.ask({ snoozed_until: '2025-06-25T00:00:00Z' }); // hidden from the queue: not counted
    const bOnly = await b.ask({});
    await b.act(bOnly.id, { action: 'answer', answer: 'Account 2' }, b.recipient); // answered: waits on the asker now
    await run();
    expect((await notices(a.recipient)).filter((n) => n.kind === 'unblock.daily_count')).toEqual([
      { kind: 'unblock.daily_count', subject_id: null, project_id: null, count: 2, actor: null },
    ]);
    expect(await notices(b.recipient)).toEqual([]);
  });

  it('19 WS-484 each request is reread at send time: resolved, withdrawn or superseded ones get no notice', async () => {
    h.setNow('2025-06-23T15:00:00Z');
    const { recipient, ask, act } = await setting();
    const kept = await ask({ due_on: '2025-06-23' });
    const resolved = await ask({ due_on: '2025-06-23' });
    const withdrawn = await ask({ due_on: '2025-06-24' });
    const superseded = await ask({ due_on: '2025-06-24' });
    let seen: readonly string[] = [];
    // Between the run's read of its candidates and its sends, three of them close.
    beforeSend = async (ids) => {
      seen = ids;
      await act(resolved.id, { action: 'answer', answer: 'Account 1' }, recipient);
      await act(resolved.id, { action: 'confirm' }, EDITOR);
      await act(withdrawn.id, { action: 'withdraw' }, EDITOR);
      await sql`UPDATE unblock_requests SET status = 'superseded', closed_at = now() WHERE id = ${superseded.id}`.execute(
        h.db,
      );
    };
    try {
      await run();
    } finally {
      beforeSend = undefined;
    }
    expect(seen).toEqual(expect.arrayContaining([kept.id, resolved.id, withdrawn.id, superseded.id]));
    const sent = (await notices(recipient)).filter((n) => n.kind !== 'unblock.daily_count');
    expect(sent.map((n) => n.subject_id)).toEqual([kept.id]);
  });

  it('19 WS-485 a repeat the same day sends nothing new', async () => {
    h.setNow('2025-06-26T13:00:00Z');
    const { recipient, ask } = await setting();
    await ask({ due_on: '2025-06-26' });
    await ask({ due_on: '2025-06-27' });
    await run();
    const after = await notices(recipient);
    expect(after).toHaveLength(3);
    h.setNow('2025-06-26T20:00:00Z');
    const again = await run();
    expect(again.reminders).toBe(0);
    expect(again.counts).toBe(0);
    expect(await notices(recipient)).toEqual(after);
  });

  it('19 WS-485 two concurrent runs the same day send each notice once', async () => {
    h.setNow('2025-07-01T13:00:00Z');
    const { recipient, ask } = await setting();
    const due = await ask({ due_on: '2025-07-01' });
    await ask({ due_on: '2025-07-02' });
    const [one, two] = await Promise.all([run(), run()]);
    expect((one?.reminders ?? 0) + (two?.reminders ?? 0)).toBeGreaterThanOrEqual(2);
    const sent = await notices(recipient);
    expect(sent.map((n) => n.kind).sort()).toEqual([
      'unblock.daily_count',
      'unblock.due_today',
      'unblock.due_tomorrow',
    ]);
    expect(sent.filter((n) => n.subject_id === due.id)).toHaveLength(1);
    const keys = await h.db
      .selectFrom('job_notices')
      .select('notice_key')
      .where('recipient', '=', fid(recipient))
      .execute();
    expect(keys).toHaveLength(3);
  });

  it('19 WS-486 reminder notices carry the request id, not the question', async () => {
    h.setNow('2025-07-07T13:00:00Z');
    const { p, recipient, ask } = await setting();
    const question = `Which ledger code for invoice ${tag()}?`;
    const r = await ask({ due_on: '2025-07-07', needed: question });
    await run();
    const rows = await h.db
      .selectFrom('notifications')
      .selectAll()
      .where('recipient', '=', fid(recipient))
      .where('kind', '=', 'unblock.due_today')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject_id: r.id, project_id: p.id });
    expect(JSON.stringify(rows)).not.toContain(question);
    expect(JSON.stringify(rows)).not.toContain('ledger');
  });
});
