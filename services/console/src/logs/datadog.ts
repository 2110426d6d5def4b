import { AppError } from '@platform/kit';

/** Datadog's keys and where its API is (DD_API_URL overrides the site's for tests). */
export interface DatadogConfig {
  apiKey?: string;
  appKey?: string;
  /** DD_SITE: datadoghq.com, datadoghq.eu, us3.datadoghq.com, ... */
  site: string;
  apiUrl?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export const logsNotConfigured = () =>
  new AppError(501, 'logs_not_configured', 'Log search is not configured (DD_API_KEY and DD_APP_KEY are unset)');

/** The base URL of Datadog's API for a site. */
export const datadogApiUrl = (cfg: Pick<DatadogConfig, 'site' | 'apiUrl'>) =>
  (cfg.apiUrl ?? `https://api.${cfg.site}`).replace(/\/$/, '');

export interface LogSearch {
  /** The full query, already scoped to the environment. */
  query: string;
  from: string;
  to: string;
  limit: number;
  cursor?: string;
}

export interface LogRow {
  id: string;
  timestamp: string | null;
  status: string | null;
  service: string | null;
  host: string | null;
  message: string | null;
  tags: string[];
  attributes: Record<string, unknown>;
}

export interface LogPage {
  rows: LogRow[];
  /** Datadog's cursor for the next page; null on the last. */
  next: string | null;
}

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** One small client for Datadog's Logs API v2 search (POST /api/v2/logs/events/search). */
export class DatadogLogs {
  private readonly fetch: typeof fetch;
  constructor(private readonly cfg: DatadogConfig) {
    this.fetch = cfg.fetch ?? fetch;
  }

  get configured(): boolean {
    return Boolean(this.cfg.apiKey && this.cfg.appKey);
  }

  async search(s: LogSearch): Promise<LogPage> {
    if (!this.cfg.apiKey || !this.cfg.appKey) throw logsNotConfigured();
    let res: Response;
    try {
      res = await this.fetch(`${datadogApiUrl(this.cfg)}/api/v2/logs/events/search`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'DD-API-KEY': this.cfg.apiKey,
          'DD-APPLICATION-KEY': this.cfg.appKey,
        },
        body: JSON.stringify({
          filter: { query: s.query, from: s.from, to: s.to },
          sort: '-timestamp',
          page: { limit: s.limit, ...(s.cursor ? { cursor: s.cursor } : {}) },
        }),
        signal: AbortSignal.timeout(this.cfg.timeoutMs),
      });
    } catch (e) {
      throw new AppError(502, 'log_search_failed', `Datadog cannot be reached (${(e as Error).name})`);
    }
    const body = (await res.json().catch(() => null)) as Json | null;
    if (res.status === 400) {
      const errors = Array.isArray(body?.errors) ? (body.errors as unknown[]).map(String).join('; ') : '';
      throw new AppError(
        400,
        'invalid_log_query',
        `Datadog refused the query${errors ? `: ${errors.slice(0, 500)}` : ''}`,
      );
    }
    if (!res.ok) throw new AppError(502, 'log_search_failed', `Datadog answered ${res.status}`);
    const data = Array.isArray(body?.data) ? (body.data as Json[]) : [];
    const after = (body?.meta as Json | undefined)?.page as Json | undefined;
    return {
      rows: data.map((d) => {
        const a = (d.attributes ?? {}) as Json;
        return {
          id: String(d.id ?? ''),
          timestamp: str(a.timestamp),
          status: str(a.status),
          service: str(a.service),
          host: str(a.host),
          message: str(a.message),
          tags: Array.isArray(a.tags) ? a.tags.map(String) : [],
          attributes: (a.attributes ?? {}) as Record<string, unknown>,
        };
      }),
      next: str(after?.after),
    };
  }
}
