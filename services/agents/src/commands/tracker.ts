import { conflict, forbidden, unprocessable, uuidv7 } from '@platform/kit';
import {
  CHECK_KINDS,
  type CheckResult,
  checksNotConfigured,
  type ReadOnlyCheck,
  type ReadOnlyChecks,
} from '../clients/checks.ts';
import { type GitHost, gitHostNotConfigured } from '../clients/git-host.ts';
import { type TrackerClient, trackerNotConfigured } from '../clients/tracker.ts';
import type { AgentRole, Caller } from '../domain/access.ts';
import {
  CLAIM_TARGETS,
  codingInstructions,
  investigationComment,
  issueEmail,
  namedIssueKey,
  reportComment,
} from '../domain/tracker.ts';
import type {
  Claim,
  ClaimInput,
  Investigation,
  Recommendation,
  RecommendationInput,
  ReportInput,
  TrackerIssueView,
} from '../schemas/tracker.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { type AgentRow, findAgent } from '../store/agents.ts';
import type { Db } from '../store/db.ts';
import {
  type ClaimRow,
  findRecommendation,
  insertClaim,
  insertRecommendation,
  latestClaim,
  markReported,
  openCodingRun,
  type RecommendationRow,
} from '../store/tracker.ts';
import { createCodingAgent } from './coding-agents.ts';
import type { CommandCtx } from './context.ts';

/** The outside systems the tracker tools use; each unset when not configured. */
export interface TrackerDeps {
  tracker?: TrackerClient;
  gitHost?: GitHost;
  checks?: ReadOnlyChecks;
  mailDomain: string;
}

/**
 * The agent a tracker tool acts on, with the issue it may touch: the path's agent as the caller may
 * use it (the harness: the service token with X-Platform-Agent-Id naming that agent, else 403
 * agent_header_mismatch), and the key, checked against the first issue key of its top agent's
 * instructions before any outside call (403 issue_not_named: AGT-140).
 */
async function toolAgent(
  db: Db,
  caller: Caller,
  agentId: string,
  issueKey: string | undefined,
  needed: AgentRole,
  lock = false,
): Promise<{ agent: AgentRow; issueKey: string }> {
  if (caller.agentId !== null && caller.agentId !== agentId) {
    throw forbidden('X-Platform-Agent-Id must name the agent of the tool call', 'agent_header_mismatch');
  }
  const { agent } = await agentFor(db, caller, agentId, needed, { lock });
  const top = agent.top_id === agent.id ? agent : await findAgent(db, agent.top_id);
  const named = namedIssueKey(top?.instructions ?? null);
  if (named === null || (issueKey !== undefined && named !== issueKey)) {
    throw forbidden(
      named === null
        ? 'The agent’s instructions name no tracker issue: it reads none'
        : `The agent works on ${named} only: ${issueKey} is not named in its instructions`,
      'issue_not_named',
    );
  }
  return { agent, issueKey: named };
}

const requireTracker = (deps: TrackerDeps): TrackerClient => {
  if (!deps.tracker) throw trackerNotConfigured();
  return deps.tracker;
};

/** POST .../tracker/read: the one issue named in the instructions (AGT-139); another key is refused before any tracker call (AGT-140). */
export async function readTrackerIssue(
  db: Db,
  caller: Caller,
  agentId: string,
  requested: string | undefined,
  deps: TrackerDeps,
): Promise<TrackerIssueView> {
  const { issueKey } = await toolAgent(db, caller, agentId, requested, 'viewer');
  const issue = await requireTracker(deps).getIssue(issueKey);
  return { issue_key: issue.key, summary: issue.summary, status: issue.status, description: issue.description };
}

/**
 * POST .../tracker/investigate: the issue and the five read-only checks on the email it names, as
 * one comment returned and never posted (AGT-141, AGT-142); no email, a comment saying so
 * (AGT-143). Every system must be configured before anything is read (503: AGT-144); nothing is
 * written here or anywhere, so the agent runs on untouched (AGT-145).
 */
export async function investigateTrackerIssue(
  db: Db,
  caller: Caller,
  agentId: string,
  requested: string | undefined,
  deps: TrackerDeps,
): Promise<Investigation> {
  const { issueKey } = await toolAgent(db, caller, agentId, requested, 'viewer');
  const tracker = requireTracker(deps);
  const systems = CHECK_KINDS.map((k) => deps.checks?.[k]);
  const missing = CHECK_KINDS.filter((_, i) => !systems[i]);
  if (missing.length > 0) throw checksNotConfigured(missing);
  const issue = await tracker.getIssue(issueKey);
  const email = issueEmail(issue);
  const checks: CheckResult[] =
    email === null ? [] : await Promise.all((systems as ReadOnlyCheck[]).map((c) => c.check(email)));
  return { issue_key: issue.key, email, comment: investigationComment(issue, email, checks), checks };
}

const recommendationView = (r: RecommendationRow): Recommendation => ({
  id: r.id,
  agent_id: r.agent_id,
  issue_key: r.issue_key,
  text: r.text,
  comment_id: r.comment_id,
  created_at: r.created_at.toISOString(),
});

/**
 * POST .../tracker/recommendations: one comment on the issue and its stored row (AGT-146). The
 * agent's row lock orders concurrent calls and the stored row decides: a later call, concurrent or
 * not, finds it and answers it, posting nothing (AGT-147). The comment is posted inside the
 * transaction, so a failed post leaves no row, and a row is never stored without its comment.
 */
export async function recommend(
  ctx: CommandCtx,
  agentId: string,
  input: RecommendationInput,
  deps: TrackerDeps,
): Promise<Recommendation> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await toolAgent(ctx.trx, caller, agentId, input.issue_key, 'editor', true);
  const tracker = requireTracker(deps);
  const stored = await findRecommendation(ctx.trx, agent.id, input.issue_key);
  if (stored) return recommendationView(stored);
  const comment = await tracker.addComment(input.issue_key, input.text);
  const row = await insertRecommendation(ctx.trx, {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agent.id,
    issue_key: input.issue_key,
    text: input.text,
    comment_id: comment.id,
    created_at: ctx.now,
  });
  return recommendationView(row);
}

const claimView = (c: ClaimRow): Claim => ({
  id: c.id,
  agent_id: c.agent_id,
  issue_key: c.issue_key,
  repository: c.repository as Claim['repository'],
  branch: c.branch,
  path_prefix: c.path_prefix,
  coding_agent_id: c.coding_agent_id,
  pull_request_url: c.pull_request_url,
  comment_id: c.comment_id,
  reported_at: c.reported_at?.toISOString() ?? null,
  created_at: c.created_at.toISOString(),
});

/**
 * POST .../tracker/claims: one ephemeral coding agent for deepsky or platform through the core's
 * coding-agents command (AGT-148), told its issue, branch and path prefix (deepsky: development
 * and deepsky: AGT-149), and the claim stored. While a coding child of the agent still runs, 409
 * coding_run_open and nothing is written (AGT-150); the agent's row lock orders concurrent claims.
 */
export async function claimIssue(
  ctx: CommandCtx,
  agentId: string,
  input: ClaimInput,
  deps: TrackerDeps,
): Promise<Claim> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await toolAgent(ctx.trx, caller, agentId, input.issue_key, 'editor', true);
  const open = await openCodingRun(ctx.trx, agent.id);
  if (open) throw conflict('coding_run_open', `The coding agent ${open.id} is still running: one coding run at a time`);
  const target = CLAIM_TARGETS[input.repository];
  const coding = await createCodingAgent(
    ctx,
    agent.id,
    { repository: input.repository },
    deps.mailDomain,
    codingInstructions(input.issue_key, input.repository),
  );
  const row = await insertClaim(ctx.trx, {
    id: uuidv7(ctx.now.getTime()),
    agent_id: agent.id,
    issue_key: input.issue_key,
    repository: input.repository,
    branch: target.branch,
    path_prefix: target.path_prefix,
    coding_agent_id: coding.id,
    created_at: ctx.now,
  });
  return claimView(row);
}

/**
 * POST .../tracker/reports: once the latest claim's coding agent no longer runs (else 409
 * coding_attempt_running), the pull request named is read from the git host in the claimed
 * repository (none: 422 pull_request_not_found; not into the claim's branch: 422
 * pull_request_mismatch) and its URL commented on the issue (AGT-151). A claim already reported
 * answers as stored and posts nothing.
 */
export async function reportAttempt(
  ctx: CommandCtx,
  agentId: string,
  input: ReportInput,
  deps: TrackerDeps,
): Promise<Claim> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await toolAgent(ctx.trx, caller, agentId, input.issue_key, 'editor', true);
  const tracker = requireTracker(deps);
  if (!deps.gitHost) throw gitHostNotConfigured();
  const claim = await latestClaim(ctx.trx, agent.id, input.issue_key);
  if (!claim) throw conflict('no_coding_attempt', `No coding attempt was claimed on ${input.issue_key}`);
  if (claim.reported_at !== null) return claimView(claim);
  const coding = await findAgent(ctx.trx, claim.coding_agent_id);
  if (coding && coding.status === 'active' && coding.desired_state === 'running') {
    throw conflict('coding_attempt_running', `The coding agent ${coding.id} has not finished`);
  }
  const pull = await deps.gitHost.pullRequest(claim.repository, input.pull_request);
  if (!pull) {
    throw unprocessable(
      'pull_request_not_found',
      `${claim.repository} has no pull request ${input.pull_request}`,
      'data/pull_request',
    );
  }
  if (pull.base !== claim.branch) {
    throw unprocessable(
      'pull_request_mismatch',
      `Pull request ${pull.number} merges into ${pull.base}, not the attempt’s ${claim.branch}`,
      'data/pull_request',
    );
  }
  const comment = await tracker.addComment(input.issue_key, reportComment(input.issue_key, pull));
  const row = await markReported(ctx.trx, claim.id, {
    pull_request_url: pull.html_url,
    comment_id: comment.id,
    reported_at: ctx.now,
  });
  return claimView(row);
}
