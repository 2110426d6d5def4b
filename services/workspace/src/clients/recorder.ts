import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The recorder partner (a Plaud-style hardware recorder service; RECORDER_URL and
 * RECORDER_PARTNER_SECRET), as docs/decisions.md writes its contract down:
 *
 * - POST {RECORDER_URL}/v1/partner/users/{user_id}/token, body {"expires_in": seconds}: a user
 *   token the recorder app signs in with, for the platform person `user_id` →
 *   200 {"access_token", "token_type": "Bearer", "expires_in"}.
 * - POST {RECORDER_URL}/v1/partner/users/{user_id}/devices, body {"serial_number"}: binds a
 *   recorder to that user → 201 {"serial_number", "user_id", "bound_at"} (200 when already theirs),
 *   409 {"error": "device_bound_elsewhere"} when another user holds it.
 *
 * Every call carries `Authorization: Bearer <partner secret>`; a refused secret is 401. Errors are
 * {"error": code, "message"}. The secret stays here: no answer of the workspace carries it.
 */

export type RecorderAnswer<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

export const PartnerToken = Type.Object({
  access_token: Type.String({ minLength: 1 }),
  token_type: Type.String(),
  expires_in: Type.Integer({ minimum: 1 }),
});
export type PartnerToken = Static<typeof PartnerToken>;

export const PartnerDevice = Type.Object({
  serial_number: Type.String(),
  user_id: Type.String(),
  bound_at: Type.String(),
});
export type PartnerDevice = Static<typeof PartnerDevice>;

export interface Recorder {
  /** A user token for the platform person `userId`, valid `expiresInSeconds`. */
  userToken(userId: string, expiresInSeconds: number): Promise<RecorderAnswer<PartnerToken>>;
  /** Binds the recorder `serial` to `userId` at the partner (409 device_bound_elsewhere: another user's). */
  bindDevice(userId: string, serial: string): Promise<RecorderAnswer<PartnerDevice>>;
}

export interface RecorderOptions {
  /** RECORDER_URL. */
  baseUrl: string;
  /** RECORDER_PARTNER_SECRET: the partner credential, sent as a bearer token and never returned. */
  partnerSecret: string;
  /** Each call, connection to last byte. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_RECORDER_TIMEOUT_MS = 10_000;

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

export class HttpRecorder implements Recorder {
  constructor(private readonly o: RecorderOptions) {}

  userToken(userId: string, expiresInSeconds: number) {
    return this.call(
      `/v1/partner/users/${encodeURIComponent(userId)}/token`,
      { expires_in: expiresInSeconds },
      PartnerToken,
    );
  }

  bindDevice(userId: string, serial: string) {
    return this.call(
      `/v1/partner/users/${encodeURIComponent(userId)}/devices`,
      { serial_number: serial },
      PartnerDevice,
    );
  }

  private async call<S extends TSchema>(path: string, body: unknown, shape: S): Promise<RecorderAnswer<Static<S>>> {
    const f = this.o.fetch ?? fetch;
    let res: Response;
    let text: string;
    try {
      res = await f(new URL(path, this.o.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.o.partnerSecret}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_RECORDER_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (e) {
      return failure(502, 'recorder_unreachable', (e as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failure(502, 'recorder_malformed', `HTTP ${res.status}, not JSON`);
    }
    if (!res.ok) {
      const e = (parsed ?? {}) as { error?: unknown; message?: unknown };
      return failure(
        res.status,
        typeof e.error === 'string' ? e.error : `http_${res.status}`,
        typeof e.message === 'string' ? e.message : `The recorder service answered HTTP ${res.status}`,
      );
    }
    if (!Value.Check(shape, parsed)) return failure(502, 'recorder_malformed', 'The answer does not have its shape');
    return { ok: true, data: parsed as Static<S> };
  }
}
