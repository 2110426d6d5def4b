import { AppError } from '@platform/kit';

/** One pull request as a tracker report reads it. */
export interface PullRequest {
  number: number;
  html_url: string;
  state: string;
  merged: boolean;
  /** The branch it merges into, and the branch it brings. */
  base: string;
  head: string;
}

/** The git host as the tracker tools use it: the pull request a report names. */
export interface GitHost {
  /** The pull request `number` of `repository` (a name in the configured organization); null when there is none. */
  pullRequest(repository: string, number: number): Promise<PullRequest | null>;
}

export interface HttpGitHostOptions {
  /** GITHUB_API_URL (default https://api.github.com). */
  baseUrl: string;
  /** GITHUB_TOKEN: sent as a bearer token, never logged. */
  token: string;
  /** TRACKER_GITHUB_ORG: the organization holding the claimable repositories. */
  owner: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export const gitHostNotConfigured = () =>
  new AppError(503, 'git_host_not_configured', 'No git host is configured (GITHUB_TOKEN, TRACKER_GITHUB_ORG)');
export const gitHostUnavailable = (why: string) =>
  new AppError(502, 'git_host_unavailable', `The git host did not answer: ${why}`);

interface GithubPull {
  number?: number;
  html_url?: string;
  state?: string;
  merged?: boolean;
  merged_at?: string | null;
  base?: { ref?: string };
  head?: { ref?: string };
}

/**
 * GitHub REST: GET /repos/{owner}/{repo}/pulls/{number} with the bearer token and the API
 * version header. 404 is no such pull request (null); any other failure is 502 git_host_unavailable.
 */
export function httpGitHost(o: HttpGitHostOptions): GitHost {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  return {
    async pullRequest(repository, number) {
      const path = `/repos/${encodeURIComponent(o.owner)}/${encodeURIComponent(repository)}/pulls/${number}`;
      let res: Response;
      try {
        res = await doFetch(`${base}${path}`, {
          headers: {
            authorization: `Bearer ${o.token}`,
            accept: 'application/vnd.github+json',
            'x-github-api-version': '2022-11-28',
          },
          signal: AbortSignal.timeout(o.timeoutMs),
        });
      } catch (e) {
        throw gitHostUnavailable((e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message);
      }
      if (res.status === 404) return null;
      if (!res.ok) throw gitHostUnavailable(`status ${res.status}`);
      let pull: GithubPull;
      try {
        pull = (await res.json()) as GithubPull;
      } catch {
        throw gitHostUnavailable('the reply is not JSON');
      }
      if (typeof pull.number !== 'number' || typeof pull.html_url !== 'string') {
        throw gitHostUnavailable('the reply is not a pull request');
      }
      return {
        number: pull.number,
        html_url: pull.html_url,
        state: pull.state ?? 'open',
        merged: pull.merged ?? Boolean(pull.merged_at),
        base: pull.base?.ref ?? '',
        head: pull.head?.ref ?? '',
      };
    },
  };
}
