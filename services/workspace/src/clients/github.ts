import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * GitHub's REST API (GITHUB_API_URL, default https://api.github.com), as the code-host workers and
 * the flow-tools-sync job read it: an organization's repositories, one repository, its pull
 * requests and its issues. Lists follow the `Link: <…>; rel="next"` header page by page (100 a
 * page). Authenticated with a bearer token (GITHUB_TOKEN) when given. Never throws: any failure is
 * an answer ({ok: false, status, code, message}) the caller reports or skips.
 */

const User = Type.Object({ login: Type.String() }, { additionalProperties: true });

export const GithubRepository = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    full_name: Type.String(),
    private: Type.Boolean(),
    owner: User,
    html_url: Type.String(),
    archived: Type.Optional(Type.Boolean()),
    default_branch: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);
export type GithubRepository = Static<typeof GithubRepository>;

export const GithubPull = Type.Object(
  {
    id: Type.Integer(),
    number: Type.Integer(),
    title: Type.String(),
    body: Type.Union([Type.String(), Type.Null()]),
    state: Type.String(),
    draft: Type.Optional(Type.Boolean()),
    user: Type.Union([User, Type.Null()]),
    html_url: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    merged_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);
export type GithubPull = Static<typeof GithubPull>;

export const GithubIssue = Type.Object(
  {
    id: Type.Integer(),
    number: Type.Integer(),
    title: Type.String(),
    body: Type.Union([Type.String(), Type.Null()]),
    state: Type.String(),
    /** Present on a pull request listed among issues (the issues endpoint lists both). */
    draft: Type.Optional(Type.Boolean()),
    pull_request: Type.Optional(Type.Unknown()),
    user: Type.Union([User, Type.Null()]),
    html_url: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: true },
);
export type GithubIssue = Static<typeof GithubIssue>;

export type GithubAnswer<T> = { ok: true; data: T } | { ok: false; status: number; code: string; message: string };

export interface Github {
  /** GET /orgs/{org}/repos?type=all, every page. */
  listOrgRepositories(org: string): Promise<GithubAnswer<GithubRepository[]>>;
  /** GET /repos/{owner}/{repo}. */
  getRepository(fullName: string): Promise<GithubAnswer<GithubRepository>>;
  /**
   * GET /repos/{owner}/{repo}/pulls?state=all&sort=updated&direction=desc, page by page, stopping
   * after the page holding the first pull updated at or before `since` (those are not returned).
   */
  listPulls(fullName: string, since?: string): Promise<GithubAnswer<GithubPull[]>>;
  /** GET /repos/{owner}/{repo}/issues?state=all&sort=updated&direction=asc&since=…, every page. */
  listIssues(fullName: string, since?: string): Promise<GithubAnswer<GithubIssue[]>>;
}

export interface GithubOptions {
  /** GITHUB_API_URL. */
  baseUrl?: string;
  /** GITHUB_TOKEN, sent as `Authorization: Bearer …`. */
  token?: string;
  /** Each request, connection to last byte. */
  timeoutMs?: number;
  /** At most this many pages per list (a bound on one call's work). */
  maxPages?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_GITHUB_URL = 'https://api.github.com';
export const DEFAULT_GITHUB_TIMEOUT_MS = 15_000;
const PER_PAGE = 100;

const failure = (status: number, code: string, message: string) => ({ ok: false as const, status, code, message });

/** The URL of rel="next" in a Link header, if any. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = part.match(/<([^>]+)>\s*;\s*rel="?([^";]+)"?/);
    if (m?.[2]?.split(/\s+/).includes('next')) return m[1];
  }
  return undefined;
}

const repoPath = (fullName: string) => {
  const [owner = '', repo = ''] = fullName.split('/');
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
};

type Fetched<T> = { ok: true; data: T; next?: string } | { ok: false; status: number; code: string; message: string };

export class HttpGithub implements Github {
  constructor(private readonly o: GithubOptions = {}) {}

  listOrgRepositories(org: string) {
    return this.list(`/orgs/${encodeURIComponent(org)}/repos?type=all&per_page=${PER_PAGE}`, GithubRepository);
  }

  async getRepository(fullName: string) {
    const r = await this.get(this.url(repoPath(fullName)), GithubRepository);
    return r.ok ? { ok: true as const, data: r.data } : r;
  }

  listPulls(fullName: string, since?: string) {
    const path = `${repoPath(fullName)}/pulls?state=all&sort=updated&direction=desc&per_page=${PER_PAGE}`;
    return this.list(path, GithubPull, since === undefined ? undefined : (p) => p.updated_at <= since);
  }

  listIssues(fullName: string, since?: string) {
    const q = since === undefined ? '' : `&since=${encodeURIComponent(since)}`;
    return this.list(
      `${repoPath(fullName)}/issues?state=all&sort=updated&direction=asc&per_page=${PER_PAGE}${q}`,
      GithubIssue,
    );
  }

  private url(path: string) {
    return new URL(path, this.o.baseUrl ?? DEFAULT_GITHUB_URL).toString();
  }

  private async list<S extends TSchema>(
    path: string,
    item: S,
    stop?: (x: Static<S>) => boolean,
  ): Promise<GithubAnswer<Static<S>[]>> {
    const all: Static<S>[] = [];
    let next: string | undefined = this.url(path);
    for (let page = 0; next && page < (this.o.maxPages ?? 100); page++) {
      const r: Fetched<Static<S>[]> = await this.get(next, Type.Array(item));
      if (!r.ok) return r;
      for (const x of r.data) {
        if (stop?.(x)) return { ok: true, data: all };
        all.push(x);
      }
      next = r.next;
    }
    return { ok: true, data: all };
  }

  private async get<S extends TSchema>(url: string, shape: S): Promise<Fetched<Static<S>>> {
    const f = this.o.fetch ?? fetch;
    let res: Response;
    let text: string;
    try {
      res = await f(url, {
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'platform-workspace',
          ...(this.o.token ? { authorization: `Bearer ${this.o.token}` } : {}),
        },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS),
      });
      text = await res.text();
    } catch (e) {
      return failure(503, 'github_unreachable', (e as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failure(502, 'github_malformed', `HTTP ${res.status}, not JSON`);
    }
    if (!res.ok) {
      const message = (parsed as { message?: string })?.message ?? `HTTP ${res.status}`;
      return failure(res.status, res.status === 404 ? 'github_not_found' : 'github_error', message);
    }
    if (!Value.Check(shape, parsed)) return failure(502, 'github_malformed', 'not the documented shape');
    return { ok: true, data: parsed as Static<S>, next: nextLink(res.headers.get('link')) };
  }
}
