/**
 * The end of a relayed reply, held back until the call's usage row is committed: a client that
 * has received a whole reply has a usage row that survives the broker (issue 13, item 2).
 *
 * Everything before the end is forwarded as it arrives. The end is, for a stream, its final
 * event (chat `data: [DONE]`, responses `response.completed`/`incomplete`/`failed`, messages
 * `message_stop`) and whatever follows it; for any other body its last byte. The body's end
 * itself (res.end) always waits for the commit too, so a stream that ends without one of those
 * events is still not complete for the client before its row is.
 */
import type { Api } from '../domain/catalog.ts';

/** Splits a reply's chunks into what may be sent now and the end, sent once the row is committed. */
export interface ReplyEnd {
  /** The bytes of `chunk` (with any bytes held from before) that may be sent now; empty for none. */
  push(chunk: Buffer): Buffer;
  /** The held end of the reply, to send after the commit (empty when nothing is held). */
  rest(): Buffer;
}

const EMPTY = Buffer.alloc(0);

/** An SSE field line that ends a stream of `api`: its field name and its value. */
interface FinalLine {
  field: string;
  value: Buffer;
}

const finalLines = (field: string, values: string[]): FinalLine[] =>
  values.map((v) => ({ field, value: Buffer.from(v) }));

const FINAL_LINES: Record<Api, FinalLine[]> = {
  chat: finalLines('data', ['[DONE]']),
  responses: finalLines('event', ['response.completed', 'response.incomplete', 'response.failed']),
  messages: finalLines('event', ['message_stop']),
  speech: [],
  transcription: [],
};

export function replyEnd(api: Api, eventStream: boolean): ReplyEnd {
  const finals = FINAL_LINES[api];
  return eventStream && finals.length > 0 ? new StreamEnd(finals) : new LastByte();
}

/** A plain body: every byte but the last is sent as it arrives. */
class LastByte implements ReplyEnd {
  private last: Buffer = EMPTY;
  push(chunk: Buffer): Buffer {
    if (chunk.length === 0) return EMPTY;
    const now = this.last.length === 0 ? chunk.subarray(0, -1) : Buffer.concat([this.last, chunk.subarray(0, -1)]);
    this.last = chunk.subarray(-1);
    return now;
  }
  rest(): Buffer {
    return this.last;
  }
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const isLineEnd = (b: number | undefined) => b === LF || b === CR;

/**
 * A stream: held from the start of its final event on. A chunk that ends part-way into a line
 * that could still become the final event's first line holds that part back too (a few bytes of
 * an unfinished line, which the client could not act on yet anyway).
 */
class StreamEnd implements ReplyEnd {
  private held: Buffer[] = [];
  private holding = false;
  /** Whether the next byte starts a line (the stream's first byte does). */
  private lineStart = true;
  private readonly longest: number;

  constructor(private readonly finals: FinalLine[]) {
    this.longest = Math.max(...finals.map((f) => f.field.length + 2 + f.value.length));
  }

  push(chunk: Buffer): Buffer {
    if (this.holding) {
      this.held.push(chunk);
      return EMPTY;
    }
    // Bytes held from the chunk before are an unfinished line at a line start.
    const lineStart = this.held.length > 0 ? true : this.lineStart;
    const data = this.held.length > 0 ? Buffer.concat([...this.held, chunk]) : chunk;
    this.held = [];
    const at = this.finalAt(data, lineStart);
    if (at !== -1) {
      this.holding = true;
      this.held = [data.subarray(at)];
      return data.subarray(0, at);
    }
    // Only the last line can be unfinished: it starts after the last line end.
    const lastEnd = Math.max(data.lastIndexOf(LF), data.lastIndexOf(CR));
    const from = lastEnd + 1;
    if ((from > 0 || lineStart) && from < data.length && data.length - from <= this.longest) {
      const tail = data.subarray(from);
      if (this.finals.some((f) => couldStart(tail, f))) {
        this.held = [tail];
        return data.subarray(0, from);
      }
    }
    this.lineStart = isLineEnd(data[data.length - 1]);
    return data;
  }

  rest(): Buffer {
    const rest = this.held.length === 1 ? (this.held[0] as Buffer) : Buffer.concat(this.held);
    this.held = [];
    return rest;
  }

  /** Where the first final line starts in `data` (-1 for none). */
  private finalAt(data: Buffer, lineStart: boolean): number {
    let first = -1;
    for (const f of this.finals) {
      for (let i = data.indexOf(f.value); i !== -1; i = data.indexOf(f.value, i + 1)) {
        // The whole line: a value at the very end of the data may go on in the next chunk.
        if (!isLineEnd(data[i + f.value.length])) continue;
        const start = fieldStart(data, i, f.field, lineStart);
        if (start !== -1) {
          if (first === -1 || start < first) first = start;
          break;
        }
      }
    }
    return first;
  }
}

/**
 * The start of the line `field: value` (the space optional, as SSE allows) whose value starts
 * at `valueAt`, or -1 when `valueAt` is not such a line's value (e.g. the text inside a JSON string).
 */
function fieldStart(data: Buffer, valueAt: number, field: string, lineStart: boolean): number {
  let i = valueAt - 1;
  if (data[i] === SPACE) i--;
  if (data[i] !== COLON) return -1;
  const start = i - field.length;
  if (start < 0 || data.toString('latin1', start, i) !== field) return -1;
  return start === 0 ? (lineStart ? 0 : -1) : isLineEnd(data[start - 1]) ? start : -1;
}

/** Whether `tail` (an unfinished line) could be the start of the final line `f`, or all of it. */
function couldStart(tail: Buffer, f: FinalLine): boolean {
  const s = tail.toString('latin1');
  const head = `${f.field}:`;
  if (s.length <= head.length) return head.startsWith(s);
  if (!s.startsWith(head)) return false;
  let rest = s.slice(head.length);
  if (rest.startsWith(' ')) rest = rest.slice(1);
  return f.value.toString('latin1').startsWith(rest);
}
