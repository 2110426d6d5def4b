import type { CheckKind, CheckResult } from '../clients/checks.ts';
import type { PullRequest } from '../clients/git-host.ts';
import type { TrackerIssue } from '../clients/tracker.ts';

/** A tracker issue key as Jira writes them: a project key, a dash, a number (PLAT-123). */
const ISSUE_KEY = /\b[A-Z][A-Z0-9_]*-[1-9][0-9]*\b/;

/**
 * The one issue a tracker agent works on: the first issue key named in the instructions of the
 * top of its chain (AGT-139). None named: the agent may read no issue.
 */
export function namedIssueKey(instructions: string | null): string | null {
  return instructions?.match(ISSUE_KEY)?.[0] ?? null;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;

/** The person an issue is about: the first email in its summary, then its description (AGT-143: none -> the comment says so). */
export function issueEmail(issue: Pick<TrackerIssue, 'summary' | 'description'>): string | null {
  return (issue.summary.match(EMAIL) ?? issue.description.match(EMAIL))?.[0]?.toLowerCase() ?? null;
}

/** Where a claim's coding agent works (AGT-148, AGT-149): deepsky on development under deepsky/. */
export const CLAIM_TARGETS = {
  deepsky: { branch: 'development', path_prefix: 'deepsky' },
  platform: { branch: 'main', path_prefix: null },
} as const satisfies Record<string, { branch: string; path_prefix: string | null }>;
export type ClaimRepository = keyof typeof CLAIM_TARGETS;
export const CLAIM_REPOSITORIES = Object.keys(CLAIM_TARGETS) as ClaimRepository[];

/** What the claim's coding agent is told: the issue, the repository, its branch and path prefix. */
export function codingInstructions(issueKey: string, repository: ClaimRepository): string {
  const t = CLAIM_TARGETS[repository];
  return [
    `Work on tracker issue ${issueKey} in the ${repository} repository.`,
    `Branch from ${t.branch} and open the pull request against ${t.branch}.`,
    t.path_prefix ? `Change only files under ${t.path_prefix}/.` : 'Change only what the issue needs.',
  ].join('\n');
}

const CHECK_LABELS: Record<CheckKind, string> = {
  identity: 'Identity',
  linkage: 'Linkage',
  lease: 'Lease',
  dashboard: 'Dashboard',
  door_access: 'Door access',
};
const OUTCOME_LABELS: Record<CheckResult['outcome'], string> = {
  ok: 'ok',
  problem: 'problem',
  not_found: 'not found',
  unavailable: 'not checked',
};

/**
 * The investigation comment (AGT-141, AGT-143): the issue, the email looked at and one line per
 * check; with no email, a comment that says so and no check run. Returned, never posted.
 */
export function investigationComment(issue: TrackerIssue, email: string | null, results: CheckResult[]): string {
  const head = `Investigation of ${issue.key} (${issue.status}): ${issue.summary}`;
  if (email === null) {
    return [
      head,
      'There is no email in this issue, so the identity, linkage, lease, dashboard and door-access checks were not run.',
      'Ask the reporter for the email address of the person affected.',
    ].join('\n');
  }
  const lines = results.map((r) => `- ${CHECK_LABELS[r.check]}: ${OUTCOME_LABELS[r.outcome]}. ${r.summary}`.trim());
  const problems = results.filter((r) => r.outcome === 'problem' || r.outcome === 'not_found');
  const verdict =
    problems.length === 0
      ? 'No check found a problem.'
      : `Look first at: ${problems.map((r) => CHECK_LABELS[r.check].toLowerCase()).join(', ')}.`;
  return [head, `Checked ${email} (read-only):`, ...lines, verdict].join('\n');
}

/** The report's comment (AGT-151): the pull request's URL, with where it merges. */
export function reportComment(issueKey: string, pull: PullRequest): string {
  return `The coding attempt on ${issueKey} finished: pull request ${pull.html_url} (into ${pull.base}).`;
}
