/**
 * A fake GitHub REST API on a local port, in its wire format: JSON arrays and objects as
 * api.github.com sends them, lists paged by `per_page` and `page` with a `Link` header (rel="next",
 * rel="last"; absolute URLs), `Authorization: Bearer <token>` checked (401 "Bad credentials"),
 * unknown paths 404 {"message":"Not Found"}. Routes: GET /orgs/{org}/repos, GET
 * /repos/{owner}/{repo}, GET /repos/{owner}/{repo}/pulls (state, sort=updated, direction), GET
 * /repos/{owner}/{repo}/issues (state, since, sort=updated, direction; pull requests are listed
 * there too, with a `pull_request` key, as GitHub does). Tests seed repositories, pulls and issues
 * and read `requests` (every path asked) to see what was read.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRepo {
  org: string;
  name: string;
  private: boolean;
  pulls: FakePull[];
  issues: FakeIssue[];
}

export interface FakePull {
  number: number;
  title: string;
  body?: string;
  draft?: boolean;
  state?: 'open' | 'closed';
  user?: string;
  created_at?: string;
  updated_at: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body?: string;
  state?: 'open' | 'closed';
  user?: string;
  created_at?: string;
  updated_at: string;
}

export interface FakeGithub {
  url: string;
  /** Every request's path and query, in order. */
  requests: string[];
  repos: Map<string, FakeRepo>;
  /** Adds a repository (org/name) and returns it to push pulls and issues into. */
  repo(fullName: string, o?: { private?: boolean }): FakeRepo;
  close(): Promise<void>;
}

let ids = 1000;

export async function startFakeGithub(o: { token?: string } = {}): Promise<FakeGithub> {
  const repos = new Map<string, FakeRepo>();
  const idOf = new Map<string, number>();
  const id = (k: string) => {
    let v = idOf.get(k);
    if (v === undefined) {
      v = ++ids;
      idOf.set(k, v);
    }
    return v;
  };
  const fake: FakeGithub = {
    url: '',
    requests: [],
    repos,
    repo(fullName, ro = {}) {
      const [org = '', name = ''] = fullName.split('/');
      const r: FakeRepo = { org, name, private: ro.private ?? false, pulls: [], issues: [] };
      repos.set(fullName.toLowerCase(), r);
      return r;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const user = (login: string) => ({ login, id: id(`user:${login}`), type: 'User', site_admin: false });
  const repoJson = (r: FakeRepo) => ({
    id: id(`repo:${r.org}/${r.name}`),
    node_id: `R_${id(`repo:${r.org}/${r.name}`)}`,
    name: r.name,
    full_name: `${r.org}/${r.name}`,
    private: r.private,
    owner: { login: r.org, id: id(`org:${r.org}`), type: 'Organization' },
    html_url: `https://github.com/${r.org}/${r.name}`,
    description: null,
    fork: false,
    url: `${fake.url}/repos/${r.org}/${r.name}`,
    archived: false,
    visibility: r.private ? 'private' : 'public',
    default_branch: 'main',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    pushed_at: '2025-01-01T00:00:00Z',
  });
  const pullJson = (r: FakeRepo, p: FakePull) => ({
    url: `${fake.url}/repos/${r.org}/${r.name}/pulls/${p.number}`,
    id: id(`pull:${r.org}/${r.name}#${p.number}`),
    node_id: `PR_${p.number}`,
    html_url: `https://github.com/${r.org}/${r.name}/pull/${p.number}`,
    number: p.number,
    state: p.state ?? 'open',
    locked: false,
    title: p.title,
    user: user(p.user ?? 'octocat'),
    body: p.body ?? null,
    labels: [],
    created_at: p.created_at ?? p.updated_at,
    updated_at: p.updated_at,
    closed_at: null,
    merged_at: null,
    draft: p.draft ?? false,
    head: { ref: `feature-${p.number}`, sha: '0'.repeat(40) },
    base: { ref: 'main', sha: '1'.repeat(40) },
  });
  const issueJson = (r: FakeRepo, i: FakeIssue) => ({
    url: `${fake.url}/repos/${r.org}/${r.name}/issues/${i.number}`,
    id: id(`issue:${r.org}/${r.name}#${i.number}`),
    node_id: `I_${i.number}`,
    html_url: `https://github.com/${r.org}/${r.name}/issues/${i.number}`,
    number: i.number,
    title: i.title,
    user: user(i.user ?? 'octocat'),
    labels: [],
    state: i.state ?? 'open',
    locked: false,
    comments: 0,
    created_at: i.created_at ?? i.updated_at,
    updated_at: i.updated_at,
    closed_at: null,
    body: i.body ?? null,
  });
  // GitHub lists pull requests among issues too, marked with a pull_request key (and draft).
  const pullAsIssue = (r: FakeRepo, p: FakePull) => ({
    ...issueJson(r, { ...p }),
    id: id(`issue:${r.org}/${r.name}#${p.number}`),
    html_url: `https://github.com/${r.org}/${r.name}/pull/${p.number}`,
    draft: p.draft ?? false,
    pull_request: {
      url: `${fake.url}/repos/${r.org}/${r.name}/pulls/${p.number}`,
      html_url: `https://github.com/${r.org}/${r.name}/pull/${p.number}`,
      merged_at: null,
    },
  });

  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', fake.url);
    fake.requests.push(`${u.pathname}${u.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const notFound = () =>
      send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    if (o.token !== undefined && req.headers.authorization !== `Bearer ${o.token}`) {
      return send(401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    }
    if (req.method !== 'GET') return notFound();
    const page = <T>(all: T[]) => {
      const per = Math.min(Math.max(Number(u.searchParams.get('per_page') ?? 30), 1), 100);
      const n = Math.max(Number(u.searchParams.get('page') ?? 1), 1);
      const last = Math.max(Math.ceil(all.length / per), 1);
      const link = (p: number, rel: string) => {
        const l = new URL(u.toString());
        l.searchParams.set('page', String(p));
        return `<${l.toString()}>; rel="${rel}"`;
      };
      const links: string[] = [];
      if (n > 1) links.push(link(n - 1, 'prev'), link(1, 'first'));
      if (n < last) links.push(link(n + 1, 'next'), link(last, 'last'));
      send(200, all.slice((n - 1) * per, n * per), links.length ? { link: links.join(', ') } : {});
    };
    const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] === 'orgs' && parts[2] === 'repos' && parts.length === 3) {
      const org = parts[1]?.toLowerCase();
      const list = [...repos.values()].filter((r) => r.org.toLowerCase() === org);
      if (list.length === 0) return notFound();
      return page(list.map(repoJson));
    }
    if (parts[0] !== 'repos' || parts.length < 3) return notFound();
    const r = repos.get(`${parts[1]}/${parts[2]}`.toLowerCase());
    if (!r) return notFound();
    if (parts.length === 3) return send(200, repoJson(r));
    const desc = u.searchParams.get('direction') !== 'asc';
    const byUpdated = <T extends { updated_at: string }>(xs: T[]) =>
      [...xs].sort((a, b) =>
        desc ? b.updated_at.localeCompare(a.updated_at) : a.updated_at.localeCompare(b.updated_at),
      );
    const state = u.searchParams.get('state') ?? 'open';
    const inState = (s?: string) => state === 'all' || (s ?? 'open') === state;
    if (parts[3] === 'pulls' && parts.length === 4) {
      return page(byUpdated(r.pulls.filter((p) => inState(p.state))).map((p) => pullJson(r, p)));
    }
    if (parts[3] === 'issues' && parts.length === 4) {
      const since = u.searchParams.get('since');
      const all = [
        ...r.issues.filter((i) => inState(i.state)).map((i) => ({ at: i.updated_at, json: issueJson(r, i) })),
        ...r.pulls.filter((p) => inState(p.state)).map((p) => ({ at: p.updated_at, json: pullAsIssue(r, p) })),
      ].filter((x) => since === null || x.at >= since);
      const sorted = byUpdated(all.map((x) => ({ updated_at: x.at, json: x.json })));
      return page(sorted.map((x) => x.json));
    }
    notFound();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
