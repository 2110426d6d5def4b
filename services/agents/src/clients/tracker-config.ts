import type { AgentsConfig } from '../config.ts';
import { CHECK_KINDS, httpCheck, type ReadOnlyChecks } from './checks.ts';
import { type GitHost, httpGitHost } from './git-host.ts';
import { httpTracker, type TrackerClient } from './tracker.ts';

/** Each check's address and token, by kind (CHECK_<KIND>_URL, CHECK_<KIND>_TOKEN). */
const CHECK_CONFIG = {
  identity: ['CHECK_IDENTITY_URL', 'CHECK_IDENTITY_TOKEN'],
  linkage: ['CHECK_LINKAGE_URL', 'CHECK_LINKAGE_TOKEN'],
  lease: ['CHECK_LEASE_URL', 'CHECK_LEASE_TOKEN'],
  dashboard: ['CHECK_DASHBOARD_URL', 'CHECK_DASHBOARD_TOKEN'],
  door_access: ['CHECK_DOOR_ACCESS_URL', 'CHECK_DOOR_ACCESS_TOKEN'],
} as const;

/**
 * The tracker tools' outside systems from configuration: each only with its address and its
 * credential (either missing leaves it unset, and the routes needing it answer 503).
 */
export function trackerClientsFromConfig(config: AgentsConfig): {
  tracker?: TrackerClient;
  gitHost?: GitHost;
  checks: ReadOnlyChecks;
} {
  const timeoutMs = config.AGENTS_UPSTREAM_TIMEOUT_MS;
  const checks: ReadOnlyChecks = {};
  for (const kind of CHECK_KINDS) {
    const [urlName, tokenName] = CHECK_CONFIG[kind];
    const baseUrl = config[urlName];
    const token = config[tokenName];
    if (baseUrl && token) checks[kind] = httpCheck({ kind, baseUrl, token, timeoutMs });
  }
  return {
    tracker:
      config.TRACKER_URL && config.TRACKER_EMAIL && config.TRACKER_API_TOKEN
        ? httpTracker({
            baseUrl: config.TRACKER_URL,
            email: config.TRACKER_EMAIL,
            apiToken: config.TRACKER_API_TOKEN,
            timeoutMs,
          })
        : undefined,
    gitHost:
      config.GITHUB_TOKEN && config.TRACKER_GITHUB_ORG
        ? httpGitHost({
            baseUrl: config.GITHUB_API_URL,
            token: config.GITHUB_TOKEN,
            owner: config.TRACKER_GITHUB_ORG,
            timeoutMs,
          })
        : undefined,
    checks,
  };
}
