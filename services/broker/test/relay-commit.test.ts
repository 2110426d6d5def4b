import type { Db } from '../src/store/db.ts';
/**
 * The end of a relayed reply waits for its usage row's commit (issue 13, item 2): the final
 * event of a stream and the last byte of a plain body reach the caller only once the write that
 * carries the call's row has committed; when that write fails, the caller gets the reply cut
 * short, the failure is logged, and the row is written by the recorder's retry.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletedCall } from '../src/relay/ports.ts';
import { writeCalls } from '../src/relay/usage-recorder.ts';
import { fid, tag } from './harness.ts';
import { type RelayHarness, relayHarness } from './relay-setup.ts';

/** The recorder's writes, held at a gate the test opens, or failed once when told. */
class Writes {
  private gate: Promise<void> | undefined;
  private open: () => void = () => {};
  private entered: ((calls: readonly CompletedCall[]) => void) | undefined;
  failNext = false;

  /** Writes wait until `release()`; resolves with the calls of the first write that starts. */
  hold(): Promise<readonly CompletedCall[]> {
    this.gate = new Promise<void>((resolve) => {
      this.open = resolve;
    });
    return new Promise((resolve) => {
      this.entered = resolve;
    });
  }

  release() {
    this.gate = undefined;
    this.open();
  }

  readonly write = async (db: Db, calls: readonly CompletedCall[], syncCommit: boolean) => {
    this.entered?.(calls);
    this.entered = undefined;
    if (this.gate) await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the database went away');
    }
    await writeCalls(db, calls, syncCommit);
  };
}

let h: RelayHarness;
const writes = new Writes();
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await relayHarness({ logLevel: 'warn', recorder: { write: writes.write, retryMs: 3_600_000 } });
  // Capture what the app logs: request loggers are children of the app's and write to its stream.
  const log = h.app.log as unknown as Record<symbol, unknown>;
  const streamSym = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream') as symbol;
  log[streamSym] = { write: (line: string) => logLines.push(JSON.parse(line)) };
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
const rowsOf = async (email: string) => (await h.usageRows()).filter((r) => r.actor_fid === fid(email));

/** POSTs a relay call and reads its body as it comes. */
async function open(path: string, body: object, me: string) {
  const r = await fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-dev-principal': me },
    body: JSON.stringify(body),
  });
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const bytes: Uint8Array[] = [];
  let size = 0;
  const text = () => Buffer.concat(bytes).toString('utf8');
  return {
    status: r.status,
    headers: r.headers,
    text,
    size: () => size,
    /** Reads until `done(text)` holds or the body ends. */
    async readUntil(done: (text: string) => boolean) {
      while (!done(text())) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        bytes.push(value);
        size += value.length;
      }
    },
    /** Reads the rest; false when the body failed (cut short). */
    async readToEnd(): Promise<boolean> {
      try {
        await this.readUntil(() => false);
        return true;
      } catch {
        return false;
      }
    },
  };
}

const STREAMS = [
  {
    api: 'chat',
    path: '/v1/relay/chat/completions',
    body: { model: 'gpt-4.1', stream: true, stream_options: { include_usage: true } },
    last: '"usage":{',
    final: 'data: [DONE]',
  },
  {
    api: 'messages',
    path: '/v1/relay/messages',
    body: { model: 'claude-haiku-4-5', max_tokens: 64, stream: true },
    last: 'event: message_delta',
    final: 'event: message_stop',
  },
  {
    api: 'responses',
    path: '/v1/relay/responses',
    body: { model: 'gpt-4.1', stream: true },
    last: 'event: response.output_item.done',
    final: 'event: response.completed',
  },
];

describe('the end of a reply waits for its usage row', () => {
  for (const s of STREAMS) {
    it(`13.2 BRK-121 a streamed ${s.api} call's final event reaches the caller only once its row is committed`, async () => {
      const me = person();
      const writing = writes.hold();
      const call = await open(
        s.path,
        { ...s.body, messages: [{ role: 'user', content: 'hello' }], input: 'hello' },
        me,
      );
      expect(call.status).toBe(200);
      // The provider's reply has ended: the row is being written, and everything but the final event is here.
      expect((await writing).map((c) => c.usage.actor_fid)).toEqual([fid(me)]);
      await call.readUntil((t) => t.includes(s.last) && t.trimEnd().endsWith('}'));
      expect(call.text()).not.toContain(s.final);
      writes.release();
      expect(await call.readToEnd()).toBe(true);
      expect(call.text()).toContain(s.final);
      expect(await rowsOf(me)).toHaveLength(1);
    });
  }

  it('13.2 BRK-121 a plain reply’s last byte reaches the caller only once its row is committed', async () => {
    const me = person();
    const writing = writes.hold();
    const call = await open(
      '/v1/relay/chat/completions',
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] },
      me,
    );
    expect(call.status).toBe(200);
    const length = Number(call.headers.get('content-length'));
    await writing;
    await call.readUntil(() => call.size() >= length - 1);
    expect(call.size()).toBe(length - 1);
    writes.release();
    expect(await call.readToEnd()).toBe(true);
    expect(JSON.parse(call.text()).object).toBe('chat.completion');
    expect(await rowsOf(me)).toHaveLength(1);
  });

  it('13.2 a row that cannot be committed cuts the reply short and is logged; the retry writes it', async () => {
    const me = person();
    const cutShort = () => logLines.filter((l) => l.msg === 'relay: usage row not committed; reply cut short');
    const before = cutShort().length;
    writes.failNext = true;
    const streamed = await open(
      '/v1/relay/chat/completions',
      { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hello' }] },
      me,
    );
    expect(streamed.status).toBe(200);
    expect(await streamed.readToEnd()).toBe(false);
    expect(streamed.text()).not.toContain('[DONE]');
    expect(cutShort().slice(before)).toEqual([
      expect.objectContaining({ level: 50, provider: 'openai', model: 'gpt-4.1', actor: fid(me) }),
    ]);
    // The database answers again: the next read flushes, and the row the caller never saw complete is billed.
    expect(await rowsOf(me)).toHaveLength(1);
  });
});
