import { CHECK_KINDS, type CheckKind, checkPath, httpCheck, type ReadOnlyChecks } from '../../src/clients/checks.ts';
import { FakeHttp, type Received } from './http.ts';

/**
 * One read-only check system on a local port, in the wire format docs/decisions.md records
 * ("Tracker tools"): GET /v1/checks/{kind}?email=… with a bearer token, answered 200 {email,
 * found, ok, summary}; a person it does not hold is found: false. Any other method is 405.
 */
export interface FakeFinding {
  ok: boolean;
  summary: string;
}

export class FakeCheck extends FakeHttp {
  readonly people = new Map<string, FakeFinding>();

  constructor(
    readonly kind: CheckKind,
    readonly token: string,
  ) {
    super((r) => this.route(r));
  }

  private route(r: Received) {
    if (r.authorization !== `Bearer ${this.token}`) return { status: 401, body: { error: 'unauthorized' } };
    if (r.path !== checkPath(this.kind)) return { status: 404, body: { error: 'not_found' } };
    if (r.method !== 'GET') return { status: 405, body: { error: 'read_only' } };
    const email = (r.query.get('email') ?? '').toLowerCase();
    const found = this.people.get(email);
    return {
      status: 200,
      body: found
        ? { email, found: true, ok: found.ok, summary: found.summary }
        : { email, found: false, ok: false, summary: `No ${this.kind.replace('_', ' ')} record for ${email}` },
    };
  }
}

export type FakeChecks = Record<CheckKind, FakeCheck>;

/** The five systems, each on its own port with its own token. */
export async function startFakeChecks(): Promise<FakeChecks> {
  const entries = await Promise.all(
    CHECK_KINDS.map(async (k) => [k, await new FakeCheck(k, `${k}-token`).start()] as const),
  );
  return Object.fromEntries(entries) as FakeChecks;
}

/** The HTTP clients of the five fakes, as start.ts builds them from configuration. */
export const checkClients = (fakes: FakeChecks, timeoutMs = 5_000): ReadOnlyChecks =>
  Object.fromEntries(
    CHECK_KINDS.map((k) => [k, httpCheck({ kind: k, baseUrl: fakes[k].url, token: fakes[k].token, timeoutMs })]),
  );
