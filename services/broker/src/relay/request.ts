/**
 * A relay request as received: the raw bytes (forwarded unchanged when nothing is rewritten),
 * parsed once, checked for what the relay itself needs.
 */
import { AppError, unprocessable } from '@platform/kit';
import type { Catalog } from '../domain/catalog.ts';

/**
 * The body as the content-type parser keeps it. The bytes sit behind a getter, so the kit's
 * input normalisation (which walks a body's own properties) passes over them.
 */
export class RawBody {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

export type Json = Record<string, unknown>;

const malformed = () =>
  new AppError(400, 'malformed_json', 'The request body is not valid JSON', [
    { code: 'malformed_json', message: 'The request body is not valid JSON' },
  ]);

/** The body's bytes and its JSON object: unparseable is 400, anything but an object 422. */
export function readBody(body: unknown): { raw: Buffer; json: Json } {
  const raw = body instanceof RawBody ? body.bytes : undefined;
  if (!raw || raw.length === 0) throw malformed();
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw unprocessable('validation_failed', 'body must be a JSON object', 'body');
  }
  return { raw, json: json as Json };
}

/** The model asked for and the provider named (if any). */
export function modelRequest(json: Json): { model: string; provider: string | undefined } {
  const { model, provider } = json;
  if (typeof model !== 'string' || model.length === 0) {
    throw unprocessable('validation_failed', 'body/model must be a model id', 'body/model');
  }
  if (provider !== undefined && typeof provider !== 'string') {
    throw unprocessable('validation_failed', 'body/provider must be a provider id', 'body/provider');
  }
  return { model, provider };
}

/** The forwarded body: the original bytes unless provider is stripped or the model rewritten. */
export function forwardBody(raw: Buffer, json: Json, model: string): Buffer {
  const hasProvider = 'provider' in json;
  if (!hasProvider && json.model === model) return raw;
  const { provider: _stripped, ...rest } = json;
  return Buffer.from(JSON.stringify({ ...rest, model }));
}

/** The speech upstream body: the caller's passage with the catalog's fixed model and voice. */
export function speechBody(catalog: Catalog, json: Json): { body: Buffer; chars: number } {
  const { input } = json;
  const max = catalog.speech.max_input_chars;
  if (typeof input !== 'string' || input.length === 0 || input.length > max) {
    throw unprocessable('validation_failed', `body/input must be text of 1 to ${max} characters`, 'body/input');
  }
  const body = { model: catalog.speech.model, voice: catalog.speech.voice, input, response_format: 'mp3' };
  return { body: Buffer.from(JSON.stringify(body)), chars: input.length };
}

/** The conversation headers: an id of up to 200 characters, knowledge unless `off`. */
export function conversationHeaders(headers: Record<string, string | string[] | undefined>) {
  const raw = headers['x-platform-conversation-id'];
  const id = (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  if (id !== undefined && id.length > 200) {
    throw unprocessable(
      'validation_failed',
      'headers/x-platform-conversation-id must be at most 200 characters',
      'headers/x-platform-conversation-id',
    );
  }
  const k = headers['x-platform-knowledge'];
  const knowledge = (Array.isArray(k) ? k[0] : k)?.trim().toLowerCase() !== 'off';
  return { conversationId: id, knowledge };
}

/** A transcription request as received: its form, the model and provider it names, the file's size. */
export interface TranscriptionForm {
  form: FormData;
  model: string;
  provider: string | undefined;
  fileBytes: number;
}

/**
 * Reads an OpenAI transcription request (multipart/form-data: file, model, prompt,
 * response_format, ...). Not multipart or unreadable: 400 malformed_body; no file or no model: 422.
 */
export async function readTranscriptionForm(
  body: unknown,
  contentType: string | undefined,
): Promise<TranscriptionForm> {
  const raw = body instanceof RawBody ? body.bytes : undefined;
  const notMultipart = () =>
    unprocessable('validation_failed', 'The body must be multipart/form-data with file and model', 'body');
  if (!raw || raw.length === 0 || !contentType?.toLowerCase().startsWith('multipart/form-data')) throw notMultipart();
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw notMultipart();
  }
  const file = form.get('file');
  if (!file || typeof file === 'string' || file.size === 0) {
    throw unprocessable('validation_failed', 'body/file must be the audio file', 'body/file');
  }
  const model = form.get('model');
  const provider = form.get('provider') ?? undefined;
  if (typeof model !== 'string' || model.length === 0) {
    throw unprocessable('validation_failed', 'body/model must be a model id', 'body/model');
  }
  if (provider !== undefined && typeof provider !== 'string') {
    throw unprocessable('validation_failed', 'body/provider must be a provider id', 'body/provider');
  }
  return { form, model, provider, fileBytes: file.size };
}

/**
 * The forwarded transcription body: the original bytes and content type unless provider is
 * stripped or the model rewritten, then the form encoded afresh (a new boundary).
 */
export async function forwardForm(
  raw: Buffer,
  contentType: string,
  t: TranscriptionForm,
  model: string,
): Promise<{ body: Buffer; contentType: string }> {
  if (t.provider === undefined && t.model === model) return { body: raw, contentType };
  const out = new FormData();
  for (const [name, value] of t.form.entries()) {
    if (name === 'provider') continue;
    if (name === 'model') out.append('model', model);
    else out.append(name, value);
  }
  const encoded = new Response(out);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
