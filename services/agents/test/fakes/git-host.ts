import { FakeHttp, type Received } from './http.ts';

/**
 * GitHub REST on a local port, in its wire format: GET /repos/{owner}/{repo}/pulls/{number} as
 * api.github.com answers it (number, html_url, state, merged, base.ref, head.ref among its
 * fields); `Authorization: Bearer <token>` checked (401 "Bad credentials"); unknown is 404
 * {"message":"Not Found"}.
 */
export interface FakePull {
  base: string;
  head: string;
  state?: 'open' | 'closed';
  merged?: boolean;
}

export class FakeGitHost extends FakeHttp {
  /** Pull requests by "owner/repo#number". */
  readonly pulls = new Map<string, FakePull>();

  constructor(readonly token: string) {
    super((r) => this.route(r));
  }

  pull(fullName: string, number: number, p: FakePull) {
    this.pulls.set(`${fullName}#${number}`, p);
  }

  private route(r: Received) {
    if (r.authorization !== `Bearer ${this.token}`) {
      return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } };
    }
    const m = r.path.match(/^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/);
    const pull = m && r.method === 'GET' ? this.pulls.get(`${m[1]}/${m[2]}#${m[3]}`) : undefined;
    if (!m || !pull) {
      return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    }
    const number = Number(m[3]);
    return {
      status: 200,
      body: {
        id: 900_000 + number,
        number,
        state: pull.state ?? 'open',
        title: `Pull ${number}`,
        html_url: `https://github.com/${m[1]}/${m[2]}/pull/${number}`,
        url: `${this.url}${r.path}`,
        merged: pull.merged ?? false,
        merged_at: pull.merged ? '2026-03-02T11:00:00Z' : null,
        draft: false,
        base: { ref: pull.base, repo: { full_name: `${m[1]}/${m[2]}` } },
        head: { ref: pull.head, repo: { full_name: `${m[1]}/${m[2]}` } },
        user: { login: 'coding-agent' },
      },
      headers: { 'x-github-api-version-selected': '2022-11-28' },
    };
  }
}

export const startFakeGitHost = (token = 'github-test-token') => new FakeGitHost(token).start();
