/**
 * Token counts, reply text and response ids read from provider replies: whole JSON bodies, and
 * SSE streams fed chunk by chunk. Streams are scanned cheaply; only the events that can carry
 * usage are parsed, and text deltas only when the reply text is wanted (saved conversations).
 * input_tokens always counts cache reads too (OpenAI semantics): Anthropic's separate cache
 * counts are added back.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Api, TokenCounts } from '../domain/catalog.ts';

type Json = Record<string, unknown>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' ? (v as Json) : undefined);

/** OpenAI chat completions usage: prompt_tokens include cached ones. */
function chatUsage(u: Json): TokenCounts {
  return {
    input_tokens: num(u.prompt_tokens),
    output_tokens: num(u.completion_tokens),
    cache_read_tokens: num(obj(u.prompt_tokens_details)?.cached_tokens),
  };
}

/** OpenAI responses usage: input_tokens include cached ones. */
function responsesUsage(u: Json): TokenCounts {
  return {
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_read_tokens: num(obj(u.input_tokens_details)?.cached_tokens),
  };
}

/** Anthropic usage: input_tokens exclude cache reads and cache writes. */
function messagesUsage(u: Json): TokenCounts {
  const cacheRead = num(u.cache_read_input_tokens);
  return {
    input_tokens: num(u.input_tokens) + cacheRead + num(u.cache_creation_input_tokens),
    output_tokens: num(u.output_tokens),
    cache_read_tokens: cacheRead,
  };
}

/** What a whole (not streamed) reply body says. */
export interface ReplyFacts {
  tokens?: TokenCounts;
  text: string;
  responseId?: string;
  /** The reply text's length when the text itself was not kept. */
  textChars?: number;
  /**
   * Whether the provider's final count arrived (a stream's last usage event). A stream cut short
   * before it may hold only a first count (Anthropic's message_start): its output is then estimated.
   */
  final?: boolean;
}

/** The usage, text and response id of a JSON reply of `api`. */
export function factsFromJson(api: Api, json: unknown): ReplyFacts {
  const j = obj(json);
  if (!j) return { text: '' };
  const u = obj(j.usage);
  switch (api) {
    case 'chat': {
      const choice = obj(Array.isArray(j.choices) ? j.choices[0] : undefined);
      const content = obj(choice?.message)?.content;
      return { tokens: u && chatUsage(u), text: typeof content === 'string' ? content : '' };
    }
    case 'responses':
      return {
        tokens: u && responsesUsage(u),
        text: responsesText(j.output),
        responseId: typeof j.id === 'string' ? j.id : undefined,
      };
    case 'messages':
      return { tokens: u && messagesUsage(u), text: textParts(j.content) };
    case 'transcription': {
      // Billed in seconds of audio: usage {type: duration, seconds}, else verbose_json's duration.
      const seconds = u?.type === 'duration' && typeof u.seconds === 'number' ? u.seconds : j.duration;
      return {
        tokens:
          typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
            ? { input_tokens: Math.max(1, Math.ceil(seconds)), output_tokens: 0, cache_read_tokens: 0 }
            : undefined,
        text: typeof j.text === 'string' ? j.text : '',
      };
    }
    default:
      return { text: '' };
  }
}

/** The text parts of a content array ({type: 'text' | 'output_text', text}). */
function textParts(content: unknown): string {
  if (!Array.isArray(content)) return '';
  let s = '';
  for (const p of content) {
    const part = obj(p);
    if ((part?.type === 'text' || part?.type === 'output_text') && typeof part.text === 'string') s += part.text;
  }
  return s;
}

function responsesText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  let s = '';
  for (const item of output) {
    const it = obj(item);
    if (it?.type === 'message') s += textParts(it.content);
  }
  return s;
}

/**
 * The length of the JSON string whose opening quote ends at `from` (escapes count as one
 * character): the text size of a delta without parsing its event.
 */
export function jsonStringLength(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 /* " */) return n;
    if (c === 92 /* \ */) i += s.charCodeAt(i + 1) === 117 /* u */ ? 5 : 1;
    n++;
  }
  return n;
}

/** Where each API's text deltas keep their text: the JSON key whose string value it is. */
const DELTA_KEY: Record<Api, string | null> = {
  chat: '"content":"',
  responses: '"delta":"',
  messages: '"text":"',
  speech: null,
  transcription: null,
};

/** Whether an event's data is a text delta of `api`. */
function isTextDelta(api: Api, data: string): boolean {
  switch (api) {
    case 'chat':
      return data.includes('"delta":{');
    case 'responses':
      return data.includes('"response.output_text.delta"');
    case 'messages':
      return data.includes('"text_delta"');
    default:
      return false;
  }
}

const carriesUsage = (data: string) => data.includes('"usage":{') || data.includes('"usage": {');

/**
 * Reads an SSE reply as it passes: `push` each chunk, then `finish`. Keeps the usage events'
 * counts, the size of the streamed text and, with `wantText`, the text itself.
 */
export class StreamTap {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private tokens: TokenCounts | undefined;
  private chars = 0;
  private text = '';
  private responseId: string | undefined;
  private final = false;

  constructor(
    private readonly api: Api,
    private readonly wantText: boolean,
  ) {}

  push(chunk: Buffer): void {
    const s = this.pending + this.decoder.write(chunk);
    let start = 0;
    for (let nl = s.indexOf('\n'); nl !== -1; nl = s.indexOf('\n', start)) {
      this.line(s, start, nl);
      start = nl + 1;
    }
    this.pending = start === 0 ? s : s.slice(start);
  }

  /** What the stream said once it ended: tokens undefined when no event carried usage. */
  finish(): ReplyFacts {
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    if (rest) this.line(rest, 0, rest.length);
    return {
      tokens: this.tokens,
      text: this.text,
      responseId: this.responseId,
      textChars: this.chars,
      final: this.final,
    };
  }

  private line(s: string, start: number, end: number): void {
    // Only `data:` lines matter: every event repeats its type inside its data.
    if (s.charCodeAt(start) !== 100 /* d */ || !s.startsWith('data:', start)) return;
    let from = start + 5;
    if (s.charCodeAt(from) === 32) from++;
    if (end > from && s.charCodeAt(end - 1) === 13 /* \r */) end--;
    const data = s.slice(from, end);
    if (carriesUsage(data)) {
      this.usageEvent(data);
      return;
    }
    if (!isTextDelta(this.api, data)) return;
    if (this.wantText) {
      const t = deltaText(this.api, parse(data));
      this.text += t;
      this.chars += t.length;
      return;
    }
    const key = DELTA_KEY[this.api];
    const at = key ? data.indexOf(key) : -1;
    if (at !== -1) this.chars += jsonStringLength(data, at + (key as string).length);
  }

  private usageEvent(data: string): void {
    const e = parse(data);
    if (!e) return;
    switch (this.api) {
      case 'chat': {
        const u = obj(e.usage);
        if (u) {
          this.tokens = chatUsage(u);
          this.final = true;
        }
        this.addText(deltaText('chat', e));
        return;
      }
      case 'responses': {
        const r = obj(e.response);
        const u = obj(r?.usage);
        if (u) {
          this.tokens = responsesUsage(u);
          this.final = true;
        }
        if (typeof r?.id === 'string') this.responseId = r.id;
        return;
      }
      case 'messages': {
        // message_start carries the input counts (and a first output count), message_delta the final output count.
        const u = obj(e.usage) ?? obj(obj(e.message)?.usage);
        if (!u) return;
        const next = messagesUsage(u);
        const prev = this.tokens;
        this.tokens =
          prev && e.type === 'message_delta'
            ? {
                input_tokens: 'input_tokens' in u ? next.input_tokens : prev.input_tokens,
                cache_read_tokens: 'cache_read_input_tokens' in u ? next.cache_read_tokens : prev.cache_read_tokens,
                output_tokens: 'output_tokens' in u ? next.output_tokens : prev.output_tokens,
              }
            : next;
        if (e.type === 'message_delta') this.final = true;
        return;
      }
    }
  }

  private addText(t: string) {
    if (this.wantText) this.text += t;
    this.chars += t.length;
  }
}

function parse(data: string): Json | undefined {
  try {
    return obj(JSON.parse(data));
  } catch {
    return undefined;
  }
}

/** The text a delta event adds. */
function deltaText(api: Api, e: Json | undefined): string {
  if (!e) return '';
  switch (api) {
    case 'chat': {
      const choice = obj(Array.isArray(e.choices) ? e.choices[0] : undefined);
      const content = obj(choice?.delta)?.content;
      return typeof content === 'string' ? content : '';
    }
    case 'responses':
      return typeof e.delta === 'string' ? e.delta : '';
    case 'messages': {
      const d = obj(e.delta);
      return d?.type === 'text_delta' && typeof d.text === 'string' ? d.text : '';
    }
    default:
      return '';
  }
}

/** The characters of a request's prompt text (messages, input, system, instructions), for estimates. */
export function promptChars(json: Json): number {
  let n = textChars(json.system) + textChars(json.instructions);
  const list = Array.isArray(json.messages) ? json.messages : json.input;
  if (typeof list === 'string') return n + list.length;
  if (Array.isArray(list)) for (const m of list) n += textChars(obj(m)?.content);
  return n;
}

function textChars(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (!Array.isArray(v)) return 0;
  let n = 0;
  for (const p of v) {
    const t = obj(p)?.text;
    if (typeof t === 'string') n += t.length;
  }
  return n;
}

/** Tokens guessed from text when the reply carried no usage: about four characters a token. */
export const estimateTokens = (inputChars: number, outputChars: number): TokenCounts => ({
  input_tokens: Math.ceil(inputChars / 4),
  output_tokens: Math.ceil(outputChars / 4),
  cache_read_tokens: 0,
});
