import { UUID_RE } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type Firm, type Vendors, vendorsUnavailable } from './vendors.ts';

/**
 * The vendors service over HTTP (CONSTRUCTION_VENDORS_URL): GET /v1/vendors/{id} and
 * GET /v1/vendors?ids=..., with X-Platform-Service-Token (vendors' VENDORS_SERVICE_TOKEN) and
 * X-Platform-On-Behalf-Of naming the caller (vendors refuses the token without it). Every call is
 * bounded by CONSTRUCTION_UPSTREAM_TIMEOUT_MS; a refused connection, a hang, a 5xx, a 401/403 or a
 * body that is not vendors' envelope is 502 vendors_unavailable. Only a 404 means "no such firm".
 */
export interface VendorsHttpOptions {
  baseUrl: string;
  serviceToken?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const FirmWire = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
});
const FirmDetailWire = Type.Object({
  ...FirmWire.properties,
  contacts: Type.Array(Type.Object({ id: Type.String() })),
});
type FirmWire = Static<typeof FirmWire>;

/** How many ids vendors' GET /v1/vendors?ids= takes at once. */
export const VENDORS_MAX_IDS = 100;

export class HttpVendors implements Vendors {
  constructor(private readonly o: VendorsHttpOptions) {}

  private async get(path: string, onBehalfOf: string): Promise<{ status: number; data: unknown }> {
    const f = this.o.fetch ?? fetch;
    let res: Response;
    let text: string;
    try {
      res = await f(new URL(path, this.o.baseUrl), {
        headers: {
          accept: 'application/json',
          ...(this.o.serviceToken ? { 'x-platform-service-token': this.o.serviceToken } : {}),
          'x-platform-on-behalf-of': onBehalfOf,
        },
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      throw vendorsUnavailable(
        (e as Error).name === 'TimeoutError' ? `no answer in ${this.o.timeoutMs} ms` : String(e),
      );
    }
    if (res.status === 404) return { status: 404, data: undefined };
    if (!res.ok) throw vendorsUnavailable(`HTTP ${res.status}`);
    try {
      const body = JSON.parse(text) as { payload?: { data?: unknown } };
      return { status: res.status, data: body?.payload?.data };
    } catch {
      throw vendorsUnavailable(`HTTP ${res.status}, not JSON`);
    }
  }

  async firm(id: string, onBehalfOf: string): Promise<Firm | null> {
    // vendors answers a malformed id with 422; here it is simply no such firm.
    if (!UUID_RE.test(id)) return null;
    const { status, data } = await this.get(`/v1/vendors/${encodeURIComponent(id)}`, onBehalfOf);
    if (status === 404) return null;
    if (!Value.Check(FirmDetailWire, data)) throw vendorsUnavailable('the firm is not in the documented shape');
    return { id: data.id, name: data.name, status: data.status, contact_ids: data.contacts.map((c) => c.id) };
  }

  async firms(ids: readonly string[], onBehalfOf: string) {
    const wanted = [...new Set(ids.filter((id) => UUID_RE.test(id)))];
    const found: Pick<Firm, 'id' | 'name' | 'status'>[] = [];
    // vendors takes at most VENDORS_MAX_IDS ids a call.
    for (let i = 0; i < wanted.length; i += VENDORS_MAX_IDS) {
      const chunk = wanted.slice(i, i + VENDORS_MAX_IDS);
      const q = new URLSearchParams({ ids: chunk.join(','), 'pagination[pageSize]': String(VENDORS_MAX_IDS) });
      const { status, data } = await this.get(`/v1/vendors?${q}`, onBehalfOf);
      if (status === 404 || !Array.isArray(data) || !data.every((d) => Value.Check(FirmWire, d))) {
        throw vendorsUnavailable('the firm list is not in the documented shape');
      }
      found.push(...(data as FirmWire[]).map((d) => ({ id: d.id, name: d.name, status: d.status })));
    }
    return found;
  }
}
