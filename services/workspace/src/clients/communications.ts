import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The platform's communications service (COMMUNICATIONS_URL), as sharing a presentation uses it:
 * one call that sends a rendered revision to its recipients. The contract is written down in
 * docs/decisions.md ("Presentations (issue 16)"); test/fakes/communications.ts speaks it. Any
 * failure is an answer ({ok: false, status, code, message}) the share turns into its own error.
 */

export interface PresentationShare {
  presentation_id: string;
  project_id: string;
  revision: number;
  title: string;
  /** The documents service's id of the revision's file. */
  document_id: string;
  content_type: string;
  recipients: string[];
  message: string;
}

export const ShareReceipt = Type.Object({ share_id: Type.String({ minLength: 1, maxLength: 200 }) });
export type ShareReceipt = Static<typeof ShareReceipt>;

export type CommunicationsAnswer =
  | { ok: true; data: ShareReceipt }
  | { ok: false; status: number; code: string; message: string };

export interface Communications {
  /** POST /v1/shares/presentations on behalf of the sharer; the key makes a retried share one message. */
  sharePresentation(
    share: PresentationShare,
    onBehalfOf: string,
    idempotencyKey: string,
  ): Promise<CommunicationsAnswer>;
}

export interface CommunicationsOptions {
  /** COMMUNICATIONS_URL. */
  baseUrl: string;
  /** The platform service token (SERVICE_TOKEN), sent as X-Platform-Service-Token. */
  serviceToken?: string;
  /** The whole call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_COMMUNICATIONS_TIMEOUT_MS = 10_000;

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

export class HttpCommunications implements Communications {
  constructor(private readonly o: CommunicationsOptions) {}

  async sharePresentation(
    share: PresentationShare,
    onBehalfOf: string,
    idempotencyKey: string,
  ): Promise<CommunicationsAnswer> {
    const f = this.o.fetch ?? fetch;
    let res: Response;
    let text: string;
    try {
      res = await f(new URL('/v1/shares/presentations', this.o.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
          'x-platform-on-behalf-of': onBehalfOf,
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify({ data: share }),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_COMMUNICATIONS_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (e) {
      return failure(503, 'communications_unreachable', (e as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failure(503, 'communications_malformed', `HTTP ${res.status}, not JSON`);
    }
    const payload = (parsed as { payload?: { data?: unknown; errors?: { code?: string; message?: string }[] } })
      ?.payload;
    if (!res.ok) {
      const first = payload?.errors?.[0];
      return failure(res.status, first?.code ?? 'communications_error', first?.message ?? `HTTP ${res.status}`);
    }
    // The platform envelope, or a bare body.
    const data = payload?.data ?? parsed;
    if (!Value.Check(ShareReceipt, data)) return failure(503, 'communications_malformed', 'not the documented shape');
    return { ok: true, data: { share_id: (data as ShareReceipt).share_id } };
  }
}
