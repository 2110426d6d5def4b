import { AppError } from '@platform/kit';

/** The five read-only checks tracker/investigate runs on the person an issue names (AGT-141). */
export const CHECK_KINDS = ['identity', 'linkage', 'lease', 'dashboard', 'door_access'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/**
 * What one check found about an email: ok (nothing wrong), problem (found, something wrong),
 * not_found (the system does not know the person), unavailable (the system did not answer).
 */
export type CheckOutcome = 'ok' | 'problem' | 'not_found' | 'unavailable';

export interface CheckResult {
  check: CheckKind;
  outcome: CheckOutcome;
  summary: string;
}

/** One read-only system: asked about one email, never written to. Never throws: a failure is `unavailable`. */
export interface ReadOnlyCheck {
  check(email: string): Promise<CheckResult>;
}

export type ReadOnlyChecks = Partial<Record<CheckKind, ReadOnlyCheck>>;

export const checksNotConfigured = (missing: readonly CheckKind[]) =>
  new AppError(
    503,
    'checks_not_configured',
    `The read-only checks are not all configured: ${missing.join(', ')} (CHECK_<KIND>_URL and CHECK_<KIND>_TOKEN)`,
  );

/** The path segment of each check on its system (docs/decisions.md, "Tracker tools"). */
export const checkPath = (kind: CheckKind) => `/v1/checks/${kind.replace('_', '-')}`;

export interface HttpCheckOptions {
  kind: CheckKind;
  /** CHECK_<KIND>_URL. */
  baseUrl: string;
  /** CHECK_<KIND>_TOKEN: a bearer token, never logged. */
  token: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

interface CheckReply {
  found?: unknown;
  ok?: unknown;
  summary?: unknown;
}

/**
 * One check over HTTP (our wire format): GET {url}/v1/checks/{kind}?email=… with a bearer token,
 * answered 200 {email, found, ok, summary}. Only GET is ever sent. No answer, a non-2xx or a reply
 * not of that shape is `unavailable`, which the investigation comment reports as such.
 */
export function httpCheck(o: HttpCheckOptions): ReadOnlyCheck {
  const doFetch = o.fetch ?? fetch;
  const url = `${o.baseUrl.replace(/\/+$/, '')}${checkPath(o.kind)}`;
  const unavailable = (why: string): CheckResult => ({
    check: o.kind,
    outcome: 'unavailable',
    summary: `could not be read (${why})`,
  });
  return {
    async check(email) {
      let res: Response;
      try {
        res = await doFetch(`${url}?email=${encodeURIComponent(email)}`, {
          method: 'GET',
          headers: { authorization: `Bearer ${o.token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        return unavailable((e as Error).name === 'TimeoutError' ? 'timed out' : 'no answer');
      }
      if (!res.ok) return unavailable(`status ${res.status}`);
      let body: CheckReply;
      try {
        body = (await res.json()) as CheckReply;
      } catch {
        return unavailable('the reply is not JSON');
      }
      if (typeof body.found !== 'boolean' || typeof body.ok !== 'boolean' || typeof body.summary !== 'string') {
        return unavailable('the reply is not a check result');
      }
      const outcome: CheckOutcome = !body.found ? 'not_found' : body.ok ? 'ok' : 'problem';
      return { check: o.kind, outcome, summary: body.summary.slice(0, 500) };
    },
  };
}
