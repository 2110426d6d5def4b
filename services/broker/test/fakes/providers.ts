/**
 * A fake model provider on a local port speaking the real wire formats: OpenAI chat completions
 * and responses, Anthropic messages (plain and streamed) and speech. Replies depend only on the
 * request body (ids and `created` come from a hash of it), so a relayed call and a direct call
 * give identical bytes. Used by the relay tests and the bench, so it stays lean.
 *
 * Transcription (POST /v1/audio/transcriptions, OpenAI's multipart form): the fake "hears" the
 * audio file's bytes as UTF-8 lines, `speaker: text` or plain text, five seconds each; it answers
 * json, text, verbose_json (segments with start and end) or diarized_json (segments with speaker
 * labels A, B, ... in order of first appearance), each with usage {type: duration, seconds}.
 * Its recorded request's `json` holds the form's text fields and `file: {name, size, text}`.
 *
 * Test hooks in the request body (forwarded unchanged by the relay):
 *   `fake: { usage?: {input_tokens, output_tokens, cached_tokens}, chunks?, delay_ms?, hang_up_after?, hold_after? }`
 *   (hang_up_after: a stream destroys its connection after that many events, a provider failing mid-reply;
 *   hold_after: a stream writes that many events (negative: all but that many) and then waits until
 *   the caller goes away, a reply still being generated)
 * force the usage the reply reports, the number of text deltas a stream carries and a delay
 * between stream events.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: a provider request of any shape
  json: any;
}

export type FakeFailure = { status: number; body?: string; contentType?: string } | 'drop';

/**
 * What a scripted text reply says (chat completions, responses, messages): `text` replaces the
 * echo, `delay_ms` holds a whole (non-streamed) reply that long, `failure` answers as failNext does.
 */
export interface ScriptedReply {
  text?: string;
  delay_ms?: number;
  failure?: FakeFailure;
}
/** A test's script: consulted for every text request; undefined keeps the fake's own reply. */
export type ReplyScript = (req: FakeRequest) => ScriptedReply | undefined;

export interface FakeProvider {
  baseUrl: string;
  requests: FakeRequest[];
  /** The next N requests answer this instead (status, body, headers), or hang up the socket: 'drop'. */
  failNext(f: FakeFailure, times?: number): void;
  /** Scripts the text replies from now on (model calls of the services under test); undefined stops it. */
  script(s: ReplyScript | undefined): void;
  /** Replies whose connection closed before they finished (the caller went away). */
  readonly aborts: number;
  /** Resolves once `n` replies in all have been cut short by their caller. */
  waitForAborts(n: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeOptions {
  port?: number;
  /** When set, requests must carry it (Authorization: Bearer or x-api-key), else 401. */
  key?: string;
  /** false: requests are not kept in `requests`. */
  record?: boolean;
  /** Text deltas per streamed reply (default 4). */
  chunks?: number;
  /** Delay between streamed events (default 0: written at once). */
  chunkDelayMs?: number;
  /** The reply script to start with (see FakeProvider.script). */
  script?: ReplyScript;
}

interface Forced {
  usage?: { input_tokens?: number; output_tokens?: number; cached_tokens?: number };
  chunks?: number;
  delay_ms?: number;
  hang_up_after?: number;
  hold_after?: number;
}

interface Reply {
  id: string;
  created: number;
  model: string;
  text: string;
  input: number;
  output: number;
  cached: number;
}

const JSON_TYPE = 'application/json';
/** The text APIs a script answers (speech and transcription keep the fake's own replies). */
const TEXT_PATHS = new Set(['/v1/chat/completions', '/v1/responses', '/v1/messages']);
const SSE_TYPE = 'text/event-stream; charset=utf-8';

/** The text of a content value: a string, or the text parts of an array of parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let s = '';
  for (const part of content) {
    if (part && typeof part === 'object') {
      const t = (part as { text?: unknown; content?: unknown }).text ?? (part as { content?: unknown }).content;
      if (typeof t === 'string') s += (s ? ' ' : '') + t;
      else if (Array.isArray(t)) s += (s ? ' ' : '') + textOf(t);
    }
  }
  return s;
}

/** The prompt's text: messages (chat, messages) or input (responses), plus any system text. */
function promptOf(json: Record<string, unknown>): string {
  let s = typeof json.system === 'string' ? json.system : textOf(json.system);
  if (typeof json.instructions === 'string') s += (s ? ' ' : '') + json.instructions;
  const msgs = Array.isArray(json.messages) ? json.messages : Array.isArray(json.input) ? json.input : null;
  if (msgs) {
    for (const m of msgs) {
      if (m && typeof m === 'object') {
        const t = textOf((m as { content?: unknown }).content);
        if (t) s += (s ? ' ' : '') + t;
      }
    }
  } else if (typeof json.input === 'string') {
    s += (s ? ' ' : '') + json.input;
  }
  return s;
}

function replyFor(body: Buffer, json: Record<string, unknown>, forced: Forced | undefined, scripted?: string): Reply {
  const hash = createHash('sha1').update(body).digest('hex');
  const model = typeof json.model === 'string' ? json.model : 'unknown-model';
  const prompt = promptOf(json);
  const echo = prompt.split(/\s+/).filter(Boolean).slice(0, 12).join(' ');
  const text = scripted ?? `${model} heard: ${echo || '(nothing)'}`;
  const words = text.split(' ').length;
  const u = forced?.usage;
  const input = u?.input_tokens ?? Math.max(1, Math.ceil(prompt.length / 4));
  return {
    id: hash.slice(0, 24),
    created: 1_700_000_000 + (Number.parseInt(hash.slice(24, 32), 16) % 10_000_000),
    model,
    text,
    input,
    output: u?.output_tokens ?? words,
    cached: Math.min(u?.cached_tokens ?? 0, input),
  };
}

/** The reply text cut into `n` deltas (word boundaries kept with their spaces). */
function deltas(text: string, n: number): string[] {
  const words = text.split(' ');
  const per = Math.max(1, Math.ceil(words.length / Math.max(1, n)));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += per) {
    const piece = words.slice(i, i + per).join(' ');
    out.push(i === 0 ? piece : ` ${piece}`);
  }
  return out;
}

// ---- OpenAI chat completions --------------------------------------------------------------

const chatUsage = (r: Reply) => ({
  prompt_tokens: r.input,
  completion_tokens: r.output,
  total_tokens: r.input + r.output,
  prompt_tokens_details: { cached_tokens: r.cached, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 0,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
});

const chatJson = (r: Reply) =>
  JSON.stringify({
    id: `chatcmpl-${r.id}`,
    object: 'chat.completion',
    created: r.created,
    model: r.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: r.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: chatUsage(r),
    service_tier: 'default',
    system_fingerprint: null,
  });

function chatEvents(r: Reply, json: Record<string, unknown>, chunks: number): string[] {
  const opts = json.stream_options as { include_usage?: boolean } | undefined;
  const withUsage = opts?.include_usage === true;
  const head = `{"id":"chatcmpl-${r.id}","object":"chat.completion.chunk","created":${r.created},"model":${JSON.stringify(r.model)},"service_tier":"default","system_fingerprint":null,"choices":`;
  const tail = withUsage ? ',"usage":null}' : '}';
  const choice = (delta: object, finish: string | null) =>
    `[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${finish ? `"${finish}"` : 'null'}}]`;
  const out = [`data: ${head}${choice({ role: 'assistant', content: '', refusal: null }, null)}${tail}\n\n`];
  for (const d of deltas(r.text, chunks)) out.push(`data: ${head}${choice({ content: d }, null)}${tail}\n\n`);
  out.push(`data: ${head}${choice({}, 'stop')}${tail}\n\n`);
  if (withUsage) out.push(`data: ${head}[],"usage":${JSON.stringify(chatUsage(r))}}\n\n`);
  out.push('data: [DONE]\n\n');
  return out;
}

// ---- OpenAI responses ---------------------------------------------------------------------

const responsesUsage = (r: Reply) => ({
  input_tokens: r.input,
  input_tokens_details: { cached_tokens: r.cached },
  output_tokens: r.output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: r.input + r.output,
});

const responseMessage = (r: Reply, text: string, status: 'in_progress' | 'completed') => ({
  id: `msg_${r.id}`,
  type: 'message',
  status,
  role: 'assistant',
  content: status === 'completed' ? [{ type: 'output_text', text, annotations: [], logprobs: [] }] : [],
});

function responseObject(r: Reply, json: Record<string, unknown>, done: boolean) {
  return {
    id: `resp_${r.id}`,
    object: 'response',
    created_at: r.created,
    status: done ? 'completed' : 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: typeof json.instructions === 'string' ? json.instructions : null,
    max_output_tokens: null,
    model: r.model,
    output: done ? [responseMessage(r, r.text, 'completed')] : [],
    parallel_tool_calls: true,
    previous_response_id: typeof json.previous_response_id === 'string' ? json.previous_response_id : null,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: done ? responsesUsage(r) : null,
  };
}

const responsesJson = (r: Reply, json: Record<string, unknown>) => JSON.stringify(responseObject(r, json, true));

function responsesEvents(r: Reply, json: Record<string, unknown>, chunks: number): string[] {
  let seq = 0;
  const ev = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const item = `msg_${r.id}`;
  const out = [
    ev('response.created', { response: responseObject(r, json, false) }),
    ev('response.in_progress', { response: responseObject(r, json, false) }),
    ev('response.output_item.added', { output_index: 0, item: responseMessage(r, '', 'in_progress') }),
    ev('response.content_part.added', {
      item_id: item,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    }),
  ];
  for (const d of deltas(r.text, chunks)) {
    out.push(
      ev('response.output_text.delta', { item_id: item, output_index: 0, content_index: 0, delta: d, logprobs: [] }),
    );
  }
  out.push(
    ev('response.output_text.done', { item_id: item, output_index: 0, content_index: 0, text: r.text, logprobs: [] }),
    ev('response.content_part.done', {
      item_id: item,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: r.text, annotations: [], logprobs: [] },
    }),
    ev('response.output_item.done', { output_index: 0, item: responseMessage(r, r.text, 'completed') }),
    ev('response.completed', { response: responseObject(r, json, true) }),
  );
  return out;
}

// ---- Anthropic messages -------------------------------------------------------------------

/** Anthropic counts cache reads apart from input_tokens. */
const messagesUsage = (r: Reply, output: number) => ({
  input_tokens: r.input - r.cached,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: r.cached,
  output_tokens: output,
});

const messagesJson = (r: Reply) =>
  JSON.stringify({
    id: `msg_${r.id}`,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [{ type: 'text', text: r.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: messagesUsage(r, r.output),
  });

function messagesEvents(r: Reply, chunks: number): string[] {
  const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [
    ev('message_start', {
      message: {
        id: `msg_${r.id}`,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: messagesUsage(r, 1),
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ev('ping', {}),
  ];
  for (const d of deltas(r.text, chunks)) {
    out.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: d } }));
  }
  out.push(
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: r.output },
    }),
    ev('message_stop', {}),
  );
  return out;
}

// ---- Speech -------------------------------------------------------------------------------

/** MP3-looking bytes: a frame header, then bytes drawn from a hash chain of the input. */
function speechBytes(json: Record<string, unknown>): Buffer {
  const input = typeof json.input === 'string' ? json.input : '';
  const size = 64 + input.length * 16;
  const out = Buffer.allocUnsafe(size);
  out[0] = 0xff;
  out[1] = 0xfb;
  out[2] = 0x90;
  out[3] = 0x64;
  let block = createHash('sha256').update(`${json.model}|${json.voice}|${input}`).digest();
  for (let i = 4; i < size; i += 32) {
    block.copy(out, i, 0, Math.min(32, size - i));
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

// ---- Transcription ------------------------------------------------------------------------

/** Seconds of audio the fake hears in each line of the file. */
export const FAKE_SECONDS_PER_LINE = 5;

interface FormFields {
  [name: string]: unknown;
  file?: { name: string; size: number; text: string };
}

async function formFields(body: Buffer, contentType: string): Promise<FormFields> {
  const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  const out: FormFields = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') out[name] = value;
    else
      out[name] = { name: value.name, size: value.size, text: Buffer.from(await value.arrayBuffer()).toString('utf8') };
  }
  return out;
}

function transcriptionReply(json: FormFields): { contentType: string; body: string } {
  const lines = (json.file?.text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^([^:]{1,40}):\s*(.*)$/.exec(l);
      return m ? { who: m[1] as string, text: m[2] as string } : { who: '', text: l };
    });
  const seconds = Math.max(1, lines.length * FAKE_SECONDS_PER_LINE);
  const text = lines.map((l) => l.text).join(' ');
  const usage = { type: 'duration', seconds };
  const format = typeof json.response_format === 'string' ? json.response_format : 'json';
  if (format === 'text') return { contentType: 'text/plain; charset=utf-8', body: text };
  if (format === 'verbose_json') {
    const segments = lines.map((l, i) => ({
      id: i,
      start: i * FAKE_SECONDS_PER_LINE,
      end: (i + 1) * FAKE_SECONDS_PER_LINE,
      text: l.text,
    }));
    return {
      contentType: JSON_TYPE,
      body: JSON.stringify({ task: 'transcribe', language: 'english', duration: seconds, text, segments, usage }),
    };
  }
  if (format === 'diarized_json') {
    const labels = new Map<string, string>();
    const segments = lines.map((l, i) => {
      if (!labels.has(l.who)) labels.set(l.who, String.fromCharCode(65 + labels.size));
      return {
        type: 'transcript.text.segment',
        id: `seg_${i}`,
        start: i * FAKE_SECONDS_PER_LINE,
        end: (i + 1) * FAKE_SECONDS_PER_LINE,
        text: l.text,
        speaker: labels.get(l.who),
      };
    });
    return {
      contentType: JSON_TYPE,
      body: JSON.stringify({ task: 'transcribe', duration: seconds, text, segments, usage }),
    };
  }
  return { contentType: JSON_TYPE, body: JSON.stringify({ text, usage }) };
}

// ---- Server -------------------------------------------------------------------------------

const isAnthropicPath = (path: string) => path.endsWith('/messages');

function errorBody(path: string, status: number, message: string): string {
  if (isAnthropicPath(path)) {
    const type = status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return JSON.stringify({ type: 'error', error: { type, message } });
  }
  const code = status === 401 ? 'invalid_api_key' : null;
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code } });
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer) {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startFakeProvider(o: FakeOptions = {}): Promise<FakeProvider> {
  const record = o.record ?? true;
  const defaultChunks = o.chunks ?? 4;
  const defaultDelay = o.chunkDelayMs ?? 0;
  const bearer = o.key ? `Bearer ${o.key}` : undefined;
  const failures: FakeFailure[] = [];
  const requests: FakeRequest[] = [];
  let script: ReplyScript | undefined = o.script;
  let aborts = 0;
  let abortWaiters: { n: number; resolve: () => void }[] = [];

  const noteAbort = () => {
    aborts += 1;
    abortWaiters = abortWaiters.filter((w) => {
      if (aborts >= w.n) w.resolve();
      return aborts < w.n;
    });
  };

  /** Writes stream events, pausing `delay` ms between them; stops when the caller goes away. */
  function stream(res: ServerResponse, events: string[], delay: number, forced?: Forced) {
    res.writeHead(200, { 'content-type': SSE_TYPE, 'cache-control': 'no-cache' });
    if (forced?.hang_up_after !== undefined) {
      res.write(events.slice(0, forced.hang_up_after).join(''), () => res.socket?.destroy());
      return;
    }
    if (forced?.hold_after !== undefined) {
      res.on('close', () => {
        if (!res.writableFinished) noteAbort();
      });
      res.write(events.slice(0, forced.hold_after).join(''));
      return;
    }
    if (delay <= 0) {
      res.end(events.join(''));
      return;
    }
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    res.on('close', () => {
      if (timer) clearTimeout(timer);
      if (!res.writableFinished) noteAbort();
    });
    const next = () => {
      timer = undefined;
      if (res.destroyed) return;
      res.write(events[i++]);
      if (i < events.length) timer = setTimeout(next, delay);
      else res.end();
    };
    next();
  }

  // biome-ignore lint/suspicious/noExplicitAny: a provider request of any shape
  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer, form?: any) {
    const path = req.url ?? '/';
    // biome-ignore lint/suspicious/noExplicitAny: a provider request of any shape
    let json: any = form;
    if (form === undefined) {
      try {
        json = body.length ? JSON.parse(body.toString('utf8')) : {};
      } catch {
        json = undefined;
      }
    }
    const request: FakeRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, json };
    if (record) requests.push(request);

    const scripted = script && TEXT_PATHS.has(path) ? script(request) : undefined;
    if (scripted?.delay_ms && scripted.delay_ms > 0 && !(json && json.stream === true)) {
      const wait = scripted.delay_ms;
      setTimeout(() => answer(req, res, body, json, path, { ...scripted, delay_ms: 0 }), wait);
      return;
    }
    answer(req, res, body, json, path, scripted);
  }

  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    // biome-ignore lint/suspicious/noExplicitAny: a provider request of any shape
    json: any,
    path: string,
    scripted: ScriptedReply | undefined,
  ) {
    const failure = scripted?.failure ?? failures.shift();
    if (failure === 'drop') {
      req.socket.destroy();
      return;
    }
    if (failure) {
      send(
        res,
        failure.status,
        failure.contentType ?? JSON_TYPE,
        failure.body ?? errorBody(path, failure.status, 'The fake provider was told to fail'),
      );
      return;
    }
    if (bearer && req.headers.authorization !== bearer && req.headers['x-api-key'] !== o.key) {
      const message = isAnthropicPath(path) ? 'invalid x-api-key' : 'Incorrect API key provided';
      send(res, 401, JSON_TYPE, errorBody(path, 401, message));
      return;
    }
    if (req.method !== 'POST') {
      send(res, 404, JSON_TYPE, errorBody(path, 404, `No route ${req.method} ${path}`));
      return;
    }
    if (json === undefined || json === null || typeof json !== 'object') {
      send(res, 400, JSON_TYPE, errorBody(path, 400, 'The request body is not valid JSON'));
      return;
    }

    const forced = json.fake as Forced | undefined;
    const chunks = forced?.chunks ?? defaultChunks;
    const delay = forced?.delay_ms ?? defaultDelay;
    switch (path) {
      case '/v1/chat/completions': {
        const r = replyFor(body, json, forced, scripted?.text);
        if (json.stream === true) stream(res, chatEvents(r, json, chunks), delay, forced);
        else send(res, 200, JSON_TYPE, chatJson(r));
        return;
      }
      case '/v1/responses': {
        const r = replyFor(body, json, forced, scripted?.text);
        if (json.stream === true) stream(res, responsesEvents(r, json, chunks), delay, forced);
        else send(res, 200, JSON_TYPE, responsesJson(r, json));
        return;
      }
      case '/v1/messages': {
        const r = replyFor(body, json, forced, scripted?.text);
        if (json.stream === true) stream(res, messagesEvents(r, chunks), delay, forced);
        else send(res, 200, JSON_TYPE, messagesJson(r));
        return;
      }
      case '/v1/audio/transcriptions': {
        if (!json.file || typeof json.model !== 'string') {
          send(res, 400, JSON_TYPE, errorBody(path, 400, 'file and model are required'));
          return;
        }
        const t = transcriptionReply(json);
        send(res, 200, t.contentType, t.body);
        return;
      }
      case '/v1/audio/speech': {
        if (typeof json.input !== 'string' || json.input.length === 0) {
          send(res, 400, JSON_TYPE, errorBody(path, 400, 'input is required'));
          return;
        }
        send(res, 200, 'audio/mpeg', speechBytes(json));
        return;
      }
      default:
        send(res, 404, JSON_TYPE, errorBody(path, 404, `No route POST ${path}`));
    }
  }

  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('multipart/form-data')) {
        handle(req, res, body);
        return;
      }
      void formFields(body, type).then(
        (form) => handle(req, res, body, form),
        () => send(res, 400, JSON_TYPE, errorBody(req.url ?? '/', 400, 'The multipart body cannot be read')),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(f, times = 1) {
      for (let i = 0; i < times; i++) failures.push(f);
    },
    script(s) {
      script = s;
    },
    get aborts() {
      return aborts;
    },
    waitForAborts(n) {
      if (aborts >= n) return Promise.resolve();
      return new Promise<void>((resolve) => abortWaiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
