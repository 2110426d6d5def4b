/**
 * The client side of the recording flow (spec 2, "Recording flow"; WS-467…WS-469): what the phone
 * app or a recorder bridge does with the write URL of POST /v1/files/upload-url. A recording is
 * sent to blob storage as blocks (Azure Put Block, one per slice or chunk) and committed at the
 * end (Put Block List), then registered with POST /v1/files.
 *
 * - Before each storage call, when the URL expires within half an hour, it is renewed
 *   (POST /v1/files/upload-url/renew: same blob name, later expiry) (WS-467).
 * - When storage refuses a call because the URL has expired (the device slept past renew_at, or
 *   its clock drifted), the URL is renewed once more and the call retried once (WS-468).
 * - Blocks already written stay valid for seven days (WS-469): a renewal keeps them, and the
 *   commit names every block staged so far under any URL. After seven days storage has dropped
 *   them: commit refuses (BlocksExpiredError) and the recording starts a new upload.
 */

export const RENEW_BEFORE_MS = 30 * 60 * 1000;
export const BLOCKS_VALID_MS = 7 * 24 * 60 * 60 * 1000;

/** The part of an upload-url or renew answer the client uses. */
export interface WriteUrl {
  id: string;
  upload_url: string;
  expires_at: string;
  blob_name: string;
}

export interface RecordingUploadOptions {
  /** Renews the write URL of the upload (POST /v1/files/upload-url/renew); see httpRenewer. */
  renew: (uploadId: string) => Promise<WriteUrl>;
  /** The client's clock (tests pass their own). */
  clock?: () => Date;
  fetch?: typeof fetch;
}

export class StorageRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Blob storage answered HTTP ${status}: ${body.slice(0, 300)}`);
  }
}

export class BlocksExpiredError extends Error {
  constructor() {
    super('The staged blocks are more than seven days old: storage has dropped them; start a new upload');
  }
}

/** Block ids are base64 of equal length within a blob: the zero-padded block number. */
export const blockId = (n: number) => Buffer.from(`block-${String(n).padStart(8, '0')}`).toString('base64');

/**
 * Whether a storage refusal says the URL (its SAS) has expired: a 403 that names the expiry
 * (Azure: AuthenticationFailed, "Signed expiry time ..."), or an authentication refusal of a URL
 * the documents service signed (Azurite answers an expired SAS 403 AuthorizationFailure, naming
 * nothing), or a 403 of a URL whose se has passed on the client's clock. Expiry is the one way a
 * signed URL stops authenticating, so one renewal and one retry follow; a second refusal stands.
 */
export function isExpiredRefusal(status: number, body: string, url: string, now: Date): boolean {
  if (status !== 403) return false;
  if (/expir|AuthenticationFailed|AuthorizationFailure/i.test(body)) return true;
  const se = new URL(url).searchParams.get('se');
  return se !== null && Date.parse(se) <= now.getTime();
}

export class RecordingUpload {
  private url: WriteUrl;
  private readonly blocks: string[] = [];
  private firstBlockAt: Date | undefined;
  /** How many renewals this client asked for (before expiry, and after an expired refusal). */
  renewals = { scheduled: 0, afterRefusal: 0 };

  constructor(
    ticket: WriteUrl,
    private readonly o: RecordingUploadOptions,
  ) {
    this.url = ticket;
  }

  private now() {
    return (this.o.clock ?? (() => new Date()))();
  }

  get blobName() {
    return this.url.blob_name;
  }
  get currentUrl() {
    return this.url;
  }
  get stagedBlocks(): readonly string[] {
    return this.blocks;
  }
  /** When the renewal is due: half an hour before the URL expires (WS-467). */
  get renewAt(): Date {
    return new Date(Date.parse(this.url.expires_at) - RENEW_BEFORE_MS);
  }
  /** Until when the staged blocks can be committed (seven days after the first). */
  get blocksValidUntil(): Date | undefined {
    return this.firstBlockAt && new Date(this.firstBlockAt.getTime() + BLOCKS_VALID_MS);
  }

  private async renew(reason: 'scheduled' | 'afterRefusal') {
    const next = await this.o.renew(this.url.id);
    if (next.blob_name !== this.url.blob_name) throw new Error('The renewal answered another blob');
    this.url = next;
    this.renewals[reason] += 1;
  }

  /** One storage call with the current URL: renewed first when due, once more after an expired refusal. */
  private async send(query: string, body: Uint8Array | string, headers: Record<string, string>) {
    if (this.now().getTime() >= this.renewAt.getTime()) await this.renew('scheduled');
    const f = this.o.fetch ?? fetch;
    const attempt = async () => {
      const target = `${this.url.upload_url}${this.url.upload_url.includes('?') ? '&' : '?'}${query}`;
      const res = await f(target, { method: 'PUT', headers, body });
      return { res, text: res.ok ? '' : await res.text(), target };
    };
    let { res, text, target } = await attempt();
    if (!res.ok && isExpiredRefusal(res.status, text, target, this.now())) {
      await this.renew('afterRefusal');
      ({ res, text } = await attempt());
    }
    if (!res.ok) throw new StorageRefusedError(res.status, text);
  }

  /** Stages the next block of the recording (Put Block). */
  async putBlock(bytes: Uint8Array): Promise<string> {
    const id = blockId(this.blocks.length + 1);
    await this.send(`comp=block&blockid=${encodeURIComponent(id)}`, bytes, {
      'content-length': String(bytes.length),
    });
    this.firstBlockAt ??= this.now();
    this.blocks.push(id);
    return id;
  }

  /** Commits every staged block, in order, as the blob (Put Block List). */
  async commit(contentType = 'application/octet-stream'): Promise<void> {
    const until = this.blocksValidUntil;
    if (until && this.now().getTime() >= until.getTime()) throw new BlocksExpiredError();
    const xml = `<?xml version="1.0" encoding="utf-8"?><BlockList>${this.blocks
      .map((b) => `<Latest>${b}</Latest>`)
      .join('')}</BlockList>`;
    await this.send('comp=blocklist', xml, {
      'content-type': 'application/xml',
      'x-ms-blob-content-type': contentType,
    });
  }
}

/**
 * A renew function over HTTP: POST {baseUrl}/v1/files/upload-url/renew with the caller's headers
 * (Authorization) and a fresh Idempotency-Key per renewal.
 */
export function httpRenewer(o: { baseUrl: string; headers: Record<string, string>; fetch?: typeof fetch }) {
  return async (uploadId: string): Promise<WriteUrl> => {
    const res = await (o.fetch ?? fetch)(new URL('/v1/files/upload-url/renew', o.baseUrl), {
      method: 'POST',
      headers: { ...o.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ data: { upload_id: uploadId } }),
    });
    const body = (await res.json()) as { payload?: { data?: WriteUrl; errors?: { code: string }[] } };
    if (!res.ok || !body.payload?.data) {
      throw new Error(`Renewal refused: HTTP ${res.status} ${body.payload?.errors?.[0]?.code ?? ''}`);
    }
    return body.payload.data;
  };
}
