import { createHash } from 'node:crypto';
import { AppError, idempotencyKey } from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The audit context a write body may carry ({data, why?}, the kit's Why). */
export interface WriteWhy {
  code?: string;
  detail?: string;
}

export interface WriteLine {
  /** What is done: outbox.republish, release.rollback, flag.<kind>.write, flag.key.read, ... */
  action: string;
  /** What it is done to: a path of names (never a secret or a key). */
  target: string;
  why?: WriteWhy;
}

/**
 * The `console.write` line every write path logs BEFORE its attempt (OPS-060): who, what, on what,
 * why. It never holds a value or a key (OPS-030), only names.
 */
export function logWrite(req: FastifyRequest, line: WriteLine): void {
  req.log.info(
    { event: 'console.write', actor: req.principal?.email ?? null, role: req.consoleRole, ...line },
    `console.write ${line.action} ${line.target}`,
  );
}

interface Stored {
  hash: string;
  at: number;
  result: Promise<{ status: number; data: unknown }>;
}

/**
 * Replays of a write's Idempotency-Key without a database (OPS-003; docs/decisions.md): the
 * console keeps each caller's keys in memory for `ttlMs`. The same key with the same body answers
 * the first attempt's result again (idempotent-replayed: true) and runs nothing; with another body
 * it is 409 idempotency_key_reused. A failed attempt is not kept, so a retry runs again. A restart
 * forgets the keys: the writes it fronts (republish, rollback, flag writes) are safe to repeat.
 */
export class WriteKeys {
  private readonly kept = new Map<string, Stored>();
  constructor(
    private readonly ttlMs = 24 * 3_600_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `work` once per caller, route and key; answers its result in the envelope. */
  async run(
    req: FastifyRequest,
    reply: FastifyReply,
    work: () => Promise<{ status?: number; data: unknown }>,
  ): Promise<unknown> {
    const key = idempotencyKey(req);
    const who = req.principal?.email ?? '';
    const slot = `${who}\u0000${req.method} ${req.url.split('?')[0]}\u0000${key}`;
    const hash = createHash('sha256')
      .update(JSON.stringify(req.body ?? null))
      .digest('hex');
    this.expire();
    const seen = this.kept.get(slot);
    if (seen) {
      if (seen.hash !== hash) {
        throw new AppError(409, 'idempotency_key_reused', 'The Idempotency-Key was used for another request');
      }
      const r = await seen.result;
      reply.header('idempotent-replayed', 'true');
      return reply.code(r.status).send(reply.envelope(r.data));
    }
    const result = work().then((r) => ({ status: r.status ?? 200, data: r.data }));
    this.kept.set(slot, { hash, at: this.now(), result });
    try {
      const r = await result;
      return reply.code(r.status).send(reply.envelope(r.data));
    } catch (e) {
      this.kept.delete(slot);
      throw e;
    }
  }

  private expire() {
    const cutoff = this.now() - this.ttlMs;
    for (const [k, v] of this.kept) {
      if (v.at >= cutoff && this.kept.size <= this.max) break;
      this.kept.delete(k);
    }
  }
}
