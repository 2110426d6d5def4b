/**
 * One relay call (spec 3, Relay rules): select the provider, check the budget, ask the router,
 * forward the caller's bytes, stream the provider's bytes back unchanged, record usage and hand
 * API-credential calls to the conversation saver. The end of the reply is sent once the call's
 * usage row is committed. Nothing before that reads the database: the budget gate and the
 * router cache. A reply cut short once the provider answered (the caller went away, or the
 * provider hung up) still writes its row: the provider bills it (issue 14.3).
 */
import { AppError, type Principal, unavailable, uuidv7 } from '@platform/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import {
  type Api,
  type CatalogModel,
  type CatalogProvider,
  findModel,
  findProvider,
  priceUsage,
  type TokenCounts,
} from '../domain/catalog.ts';
import type { RouteDeps } from '../routes/deps.ts';
import type { UsageRecord } from '../store/usage-writes.ts';
import type { Actor, CompletedCall, RouteDecision } from './ports.ts';
import { replyEnd } from './reply-end.ts';
import {
  conversationHeaders,
  forwardBody,
  forwardForm,
  type Json,
  modelRequest,
  type RawBody,
  readBody,
  readTranscriptionForm,
  speechBody,
} from './request.ts';
import { selectProvider } from './select.ts';
import {
  CallAbort,
  forwardedHeaders,
  readBounded,
  type Upstream,
  Upstreams,
  upstreamHeaders,
  upstreamMessage,
  upstreamOf,
} from './upstream.ts';
import { estimateTokens, factsFromJson, promptChars, type ReplyFacts, StreamTap } from './usage-extract.ts';

/** Error replies are read this far (for the caller's message); the log keeps the first 2 KiB. */
const ERROR_READ_LIMIT = 16 * 1024;
const LOG_BODY_LIMIT = 2 * 1024;
/** JSON replies are copied aside this far for their usage; a longer one is estimated. */
const JSON_COPY_LIMIT = 8 * 1024 * 1024;

/** Everything a call needs once it is cleared to go upstream. */
interface Prepared {
  api: Api;
  actor: Actor;
  provider: CatalogProvider;
  upstream: Upstream & { key: string };
  /** What the caller asked for, and what is sent. */
  requested: CatalogModel | undefined;
  used: CatalogModel | undefined;
  usedWireId: string;
  decision?: RouteDecision;
  forward: Buffer;
  request: Json;
  /** Speech: the passage's characters (its billed units). */
  speechChars?: number;
  /** Transcription: the audio file's size (its seconds are estimated from it when the reply names none). */
  audioBytes?: number;
  /** The forwarded body's content type when not JSON (a transcription's multipart form). */
  contentType?: string;
}

/**
 * A transcription reply that names no duration (response_format text, srt or vtt) is billed at
 * this many bytes of audio a second: 32 kbit/s, compressed speech (marked estimated).
 */
export const ESTIMATED_AUDIO_BYTES_PER_SECOND = 4_000;

export class Relay {
  private readonly upstreams: Upstreams;
  private readonly byId: Map<string, Upstream>;

  constructor(private readonly deps: RouteDeps) {
    this.upstreams = new Upstreams(deps.relay);
    this.byId = new Map(deps.endpoints.map((e) => [e.id, upstreamOf(e)]));
  }

  close(): Promise<void> {
    return this.upstreams.close();
  }

  /** One call by `principal`, whom the route's guard admitted. */
  async handle(req: FastifyRequest, reply: FastifyReply, api: Api, principal: Principal): Promise<void> {
    const conversation =
      principal.via === 'credential' && api !== 'transcription' ? conversationHeaders(req.headers) : undefined;
    const actor: Actor = { fid: principal.id, email: principal.email };
    let call: Prepared;
    if (api === 'transcription') call = await this.prepareTranscription(actor, req);
    else {
      const { raw, json } = readBody(req.body);
      call = api === 'speech' ? await this.prepareSpeech(actor, json) : await this.prepare(api, actor, raw, json);
    }

    const res = reply.raw;
    const abort = new CallAbort();
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClose);

    const headers = upstreamHeaders(
      call.provider.kind,
      call.upstream.key,
      req.headers,
      this.deps.relay.anthropicVersion,
    );
    if (call.contentType) headers['content-type'] = call.contentType;
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await this.upstreams.send(call.upstream, api, headers, call.forward, abort);
    } catch (e) {
      res.off('close', onClose);
      if (abort.aborted) {
        // The caller went away before the provider answered: nobody to answer.
        reply.hijack();
        return;
      }
      throw this.failed(req, call, null, null, e);
    }
    if (upstream.statusCode < 200 || upstream.statusCode >= 300) {
      res.off('close', onClose);
      const text = await readBounded(upstream.body, ERROR_READ_LIMIT);
      throw this.failed(req, call, upstream.statusCode, text, null);
    }

    reply.hijack();
    res.writeHead(upstream.statusCode, forwardedHeaders(upstream.headers, String(req.id)));
    const stream = isEventStream(upstream.headers['content-type']);
    const facts = this.observe(call, upstream, stream, conversation !== undefined);
    const body = upstream.body;
    // The end of the reply waits for the call's usage row to commit (reply-end.ts).
    const end = replyEnd(api, stream);
    const resume = () => body.resume();
    /** Bytes the provider sent: what a reply cut short is estimated from when it said nothing else. */
    let relayed = 0;
    // Written by hand rather than piped, to hold the end back; with the same backpressure. A
    // plain pipe would also cost an AbortSignal per call (stream.pipeline) on Node 20. A caller
    // who goes away aborts the upstream call (onClose), which ends the body with an error.
    body.on('data', (chunk: Buffer) => {
      relayed += chunk.length;
      const now = end.push(chunk);
      if (now.length > 0 && !res.write(now)) {
        body.pause();
        res.once('drain', resume);
      }
    });
    body.once('end', () => {
      let committed: Promise<boolean>;
      try {
        const said = facts();
        committed = this.completed(call, said);
        if (conversation && api !== 'speech') {
          this.deps.conversations.save({
            principal,
            api,
            provider: call.provider.id,
            model: call.usedWireId,
            request: call.request,
            replyText: said.text,
            responseId: said.responseId,
            conversationId: conversation.conversationId,
            knowledge: conversation.knowledge,
          });
        }
      } catch (err) {
        // Nothing may throw out of this event: it would take the process down.
        req.log.error({ err, provider: call.provider.id, model: call.usedWireId }, 'relay: recording the call failed');
        committed = Promise.resolve(false);
      }
      void committed.then((ok) => {
        if (ok) {
          res.end(end.rest());
          return;
        }
        // No durable row, no whole reply: the caller gets it cut short (its row, when queued, is retried).
        req.log.error(
          { provider: call.provider.id, model: call.usedWireId, actor: call.actor.fid },
          'relay: usage row not committed; reply cut short',
        );
        res.destroy();
      });
    });
    body.once('error', (err) => {
      // Cut short: the provider failed mid-reply, or the caller went away (abort). Either way the
      // call reached the provider, which bills it: its row is written, estimated unless the
      // provider's final count came (issue 14.3). The caller gets a cut-short reply, or none.
      if (!abort.aborted) this.logFailure(req, call, upstream.statusCode, null, err);
      try {
        const said = facts();
        if (said.textChars === undefined && said.text === '') said.textChars = Math.ceil(relayed / 2);
        void this.completed(call, said, true).then((ok) => {
          if (!ok) {
            req.log.error(
              { provider: call.provider.id, model: call.usedWireId, actor: call.actor.fid },
              'relay: usage row of a reply cut short not committed',
            );
          }
        });
      } catch (e) {
        req.log.error(
          { err: e, provider: call.provider.id, model: call.usedWireId },
          'relay: recording the call failed',
        );
      }
      res.destroy();
    });
  }

  /** Chat, responses and messages: provider, key, budget, routing, the forwarded body. */
  private async prepare(api: Api, actor: Actor, raw: Buffer, json: Json): Promise<Prepared> {
    const asked = modelRequest(json);
    const selected = selectProvider(this.deps.catalog, api, asked.provider, asked.model);
    const upstream = this.keyed(selected.provider);
    const now = this.deps.clock();
    await this.deps.budgets.check(actor, now);
    const decision = await this.deps.router.decide({
      api,
      actor,
      provider: selected.provider,
      model: selected.model,
      body: json,
      now,
    });
    let provider = selected.provider;
    let target = upstream;
    let used = selected.model;
    if (decision.substituted && !sameModel(decision.model, selected.model)) {
      // A routed model on another provider is taken only when that provider can serve this API.
      const other =
        decision.model.provider === provider.id ? provider : findProvider(this.deps.catalog, decision.model.provider);
      const otherUpstream = other && this.byId.get(other.id);
      if (other?.apis.includes(api) && otherUpstream?.key) {
        provider = other;
        target = otherUpstream as Upstream & { key: string };
        used = decision.model;
      }
    }
    const substituted = !sameModel(used, selected.model);
    return {
      api,
      actor,
      provider,
      upstream: target,
      requested: selected.model,
      used,
      usedWireId: used.wire_id,
      decision: substituted
        ? decision
        : {
            ...decision,
            model: selected.model,
            substituted: false,
            outcome: decision.substituted ? 'kept' : decision.outcome,
          },
      forward: forwardBody(raw, json, used.wire_id),
      request: json,
    };
  }

  /** Speech: the catalog's speech provider, model and voice whatever the request names; not routed. */
  private async prepareSpeech(actor: Actor, json: Json): Promise<Prepared> {
    const { catalog } = this.deps;
    const { body, chars } = speechBody(catalog, json);
    const provider = findProvider(catalog, catalog.speech.provider);
    if (!provider) throw unavailable('provider_unavailable', 'No speech provider is configured');
    const upstream = this.keyed(provider);
    await this.deps.budgets.check(actor, this.deps.clock());
    const model = findModel(catalog, provider.id, catalog.speech.model);
    return {
      api: 'speech',
      actor,
      provider,
      upstream,
      requested: model,
      used: model,
      usedWireId: catalog.speech.model,
      forward: body,
      request: json,
      speechChars: chars,
    };
  }

  /**
   * Transcription (OpenAI's audio transcriptions, multipart): the provider named, else the one
   * offering the model (selectProvider, as every relay call); not routed (a recording has no
   * prompt to grade, and its model decides the reply's shape, e.g. speakers). The form goes as
   * sent, provider stripped.
   */
  private async prepareTranscription(actor: Actor, req: FastifyRequest): Promise<Prepared> {
    const contentType = req.headers['content-type'];
    const form = await readTranscriptionForm(req.body, contentType);
    const selected = selectProvider(this.deps.catalog, 'transcription', form.provider, form.model);
    const upstream = this.keyed(selected.provider);
    await this.deps.budgets.check(actor, this.deps.clock());
    const raw = (req.body as RawBody).bytes;
    const forward = await forwardForm(raw, contentType as string, form, selected.model.wire_id);
    const request: Json = { model: form.model };
    for (const [name, value] of form.form.entries()) if (typeof value === 'string') request[name] = value;
    return {
      api: 'transcription',
      actor,
      provider: selected.provider,
      upstream,
      requested: selected.model,
      used: selected.model,
      usedWireId: selected.model.wire_id,
      forward: forward.body,
      contentType: forward.contentType,
      request,
      audioBytes: form.fileBytes,
    };
  }

  /** The provider's endpoint, or 503 when the broker holds no key for it. */
  private keyed(provider: CatalogProvider): Upstream & { key: string } {
    const u = this.byId.get(provider.id);
    if (!u?.key) throw unavailable('provider_unavailable', `No key is configured for provider ${provider.id}`);
    return u as Upstream & { key: string };
  }

  /**
   * Watches the reply's bytes as they pass: SSE events through the stream tap, a JSON body
   * copied aside (bounded). Returns what the reply said, to ask once it ended.
   */
  private observe(
    call: Prepared,
    upstream: Dispatcher.ResponseData,
    stream: boolean,
    wantText: boolean,
  ): () => ReplyFacts {
    if (call.api === 'speech') return () => ({ text: '' });
    const body = upstream.body;
    if (stream) {
      const tap = new StreamTap(call.api, wantText);
      body.on('data', (chunk: Buffer) => tap.push(chunk));
      return () => tap.finish();
    }
    const parts: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= JSON_COPY_LIMIT) parts.push(chunk);
    });
    return () => {
      if (size > JSON_COPY_LIMIT) return { text: '', textChars: Math.ceil(size / 2) };
      try {
        return factsFromJson(call.api, JSON.parse(Buffer.concat(parts, size).toString('utf8')));
      } catch {
        return { text: '' };
      }
    };
  }

  /**
   * Prices the call and queues its usage row (and its routing decision); resolves true once
   * committed. A reply `cut` short counts the provider's tokens only when its final count came;
   * otherwise the input is the provider's first count or the request's text, the output the text
   * relayed, and the row is marked estimated.
   */
  private completed(call: Prepared, facts: ReplyFacts, cut = false): Promise<boolean> {
    let tokens: TokenCounts | undefined = facts.tokens;
    let estimated = false;
    if (call.speechChars !== undefined) {
      tokens = { input_tokens: call.speechChars, output_tokens: 0, cache_read_tokens: 0 };
    } else if (call.audioBytes !== undefined) {
      // Transcription: seconds of audio, as the reply names them, else estimated from the file's size.
      if (!tokens || cut) {
        const seconds = Math.max(1, Math.ceil(call.audioBytes / ESTIMATED_AUDIO_BYTES_PER_SECOND));
        tokens = { input_tokens: seconds, output_tokens: 0, cache_read_tokens: 0 };
        estimated = true;
      }
    } else if (!tokens) {
      tokens = estimateTokens(promptChars(call.request), facts.textChars ?? facts.text.length);
      estimated = true;
    } else if (cut && !facts.final) {
      const guess = estimateTokens(0, facts.textChars ?? facts.text.length);
      tokens = { ...tokens, output_tokens: Math.max(tokens.output_tokens, guess.output_tokens) };
      estimated = true;
    }
    const zero = { cost_micros: 0, cache_savings_micros: 0 };
    const price = call.used ? priceUsage(call.used.prices, tokens) : zero;
    const substituted = call.decision?.substituted === true;
    const asked =
      substituted && call.requested ? priceUsage(call.requested.prices, tokens).cost_micros : price.cost_micros;
    const savings = asked - price.cost_micros;
    const usage: UsageRecord = {
      id: uuidv7(),
      occurred_at: this.deps.clock(),
      actor_fid: call.actor.fid,
      provider: call.provider.id,
      provider_kind: call.provider.kind,
      model: call.usedWireId,
      requested_model: substituted ? (call.requested?.wire_id ?? null) : null,
      request_kind: call.api,
      input_tokens: tokens.input_tokens,
      output_tokens: tokens.output_tokens,
      cache_read_tokens: tokens.cache_read_tokens,
      cost_micros: price.cost_micros,
      cache_savings_micros: price.cache_savings_micros,
      routing_savings_micros: savings,
      source: 'relay',
      estimated,
    };
    const completed: CompletedCall = { usage };
    if (call.decision && call.requested) {
      completed.decision = {
        ...call.decision,
        actor_fid: call.actor.fid,
        requested_model: call.requested.wire_id,
        savings_micros: savings,
      };
    }
    return this.deps.usage.record(completed);
  }

  /** 502: logs one line with what the provider said, and answers in the broker's envelope. */
  private failed(
    req: FastifyRequest,
    call: Prepared,
    status: number | null,
    body: string | null,
    error: unknown,
  ): AppError {
    const message = this.logFailure(req, call, status, body, error);
    let text: string;
    if (status === null) text = `The provider ${call.provider.id} could not be reached`;
    else if (status === 401 || status === 403)
      text = `The provider ${call.provider.id} refused the broker's credentials`;
    else text = `The provider ${call.provider.id} answered ${status}${message ? `: ${message.slice(0, 500)}` : ''}`;
    return new AppError(502, 'upstream_failed', text, [
      { code: 'upstream_failed', message: text, ...(status !== null ? { value: status } : {}) },
    ]);
  }

  private logFailure(
    req: FastifyRequest,
    call: Prepared,
    status: number | null,
    body: string | null,
    error: unknown,
  ): string | null {
    const message = body === null ? null : upstreamMessage(body);
    req.log.warn(
      {
        provider: call.provider.id,
        model: call.usedWireId,
        // The actor's id, not their email: logs carry no personal data.
        actor: call.actor.fid,
        upstreamStatus: status,
        upstreamMessage: message,
        upstreamBody: body === null ? null : body.slice(0, LOG_BODY_LIMIT),
        error: error ? ((error as Error).message ?? String(error)) : `provider answered ${status}`,
      },
      'relay upstream failed',
    );
    return message;
  }
}

const isEventStream = (type: string | string[] | undefined) =>
  typeof type === 'string' && type.startsWith('text/event-stream');

const sameModel = (a: CatalogModel, b: CatalogModel) => a.provider === b.provider && a.wire_id === b.wire_id;
