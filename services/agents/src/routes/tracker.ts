import { Command, Envelope } from '@platform/kit';
import {
  claimIssue,
  investigateTrackerIssue,
  readTrackerIssue,
  recommend,
  reportAttempt,
} from '../commands/tracker.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  Claim,
  ClaimInput,
  Investigation,
  IssueBody,
  Recommendation,
  RecommendationInput,
  ReportInput,
  TrackerIssueView,
} from '../schemas/tracker.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['tracker'];

const ISSUE_RULE =
  'The body names the issue ({data: {issue_key, …}}; read and investigate may omit it): only the first issue key in the instructions of the top of ' +
  'the agent’s chain; another is 403 issue_not_named before any outside call. The harness calls with the service ' +
  'token and X-Platform-Agent-Id naming {id} (another agent: 403 agent_header_mismatch).';

/** The tracker tools (spec 3: /v1/agents/{id}/tracker/*): the issue tracker, the git host and the read-only checks. */
export const TRACKER_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/tracker/read',
    action: 'RunAgents',
    tags,
    summary: 'Read the one issue named in the instructions: summary, status and description as text',
    description: `${ISSUE_RULE} Needs viewer on {id}. Not a command: it reads. No tracker configured: 503 tracker_not_configured; the tracker failing: 502 tracker_unavailable; no such issue there: 404 tracker_issue_not_found.`,
    command: false,
    params: AgentIdParams,
    body: IssueBody,
    response: Envelope(TrackerIssueView),
    errors: [
      'agent_not_found',
      'agent_header_mismatch',
      'issue_not_named',
      'tracker_not_configured',
      'tracker_unavailable',
      'tracker_issue_not_found',
    ],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      return input.reply.envelope(
        await readTrackerIssue(deps.database.db, caller, input.params.id, input.body.data.issue_key, deps),
      );
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/tracker/investigate',
    action: 'RunAgents',
    tags,
    summary:
      'Read the issue and return a comment from the read-only identity, linkage, lease, dashboard and door-access checks',
    description:
      `${ISSUE_RULE} Needs viewer on {id}. The email checked is the first in the issue’s summary, then its ` +
      'description; with none, the comment says so and no check runs. Each check only reads (GET); one that does ' +
      'not answer is reported in the comment as not checked. The comment is returned, not posted: nothing is written ' +
      'to the tracker, the checked systems or the database. The tracker or any check not configured is 503 ' +
      '(tracker_not_configured, checks_not_configured) before anything is read, and the agent runs on untouched.',
    command: false,
    params: AgentIdParams,
    body: IssueBody,
    response: Envelope(Investigation),
    errors: [
      'agent_not_found',
      'agent_header_mismatch',
      'issue_not_named',
      'tracker_not_configured',
      'checks_not_configured',
      'tracker_unavailable',
      'tracker_issue_not_found',
    ],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      return input.reply.envelope(
        await investigateTrackerIssue(deps.database.db, caller, input.params.id, input.body.data.issue_key, deps),
      );
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/tracker/recommendations',
    action: 'RunAgents',
    tags,
    summary: 'Post one recommendation on the issue as a comment and store it; a second call returns the stored row',
    description:
      `${ISSUE_RULE} Needs editor on {id}. One recommendation per agent and issue: the first call posts text as a ` +
      'comment and stores the row; any later call, concurrent or not and whatever its text, answers that row and ' +
      'posts nothing. A failed post (502 tracker_unavailable) stores nothing.',
    params: AgentIdParams,
    body: Command(RecommendationInput),
    response: Envelope(Recommendation),
    errors: [
      'agent_not_found',
      'insufficient_role',
      'agent_header_mismatch',
      'issue_not_named',
      'tracker_not_configured',
      'tracker_unavailable',
      'tracker_issue_not_found',
    ],
    run: (ctx, { params, body }, deps) => recommend(ctx, params.id, body.data, deps),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/tracker/claims',
    action: 'StartAgents',
    tags,
    summary: 'Claim the issue: start one ephemeral coding agent for deepsky or platform',
    description:
      `${ISSUE_RULE} Needs editor on {id}, a persistent active agent. Starts one coding agent through POST ` +
      '…/coding-agents’ command (first coding harness, the repository, instructions naming the issue, branch and ' +
      'path prefix) and answers the claim with repository, branch and path_prefix: deepsky works on development ' +
      'under deepsky/, platform on main. While a coding agent of {id} still runs, 409 coding_run_open and nothing ' +
      'is written. Publishes agent.created and agent.started (reason coding). No tracker call.',
    params: AgentIdParams,
    body: Command(ClaimInput),
    response: Envelope(Claim),
    status: 201,
    errors: [
      'agent_not_found',
      'insufficient_role',
      'agent_header_mismatch',
      'issue_not_named',
      'coding_run_open',
      'parent_not_persistent',
      'parent_not_active',
      'harness_not_coding',
      'slug_taken',
    ],
    run: (ctx, { params, body }, deps) => claimIssue(ctx, params.id, body.data, deps),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/tracker/reports',
    action: 'RunAgents',
    tags,
    summary: 'Comment the pull request URL of the finished coding attempt on the issue',
    description:
      `${ISSUE_RULE} Needs editor on {id}. The attempt is the latest claim on the issue (none: 409 ` +
      'no_coding_attempt); its coding agent must have finished (still running: 409 coding_attempt_running). The ' +
      'pull request number is read from the git host in the claimed repository (none: 422 pull_request_not_found; ' +
      'not into the claim’s branch: 422 pull_request_mismatch) and its URL commented on the issue. A claim already ' +
      'reported answers as stored and posts nothing. Tracker or git host not configured: 503; failing: 502.',
    params: AgentIdParams,
    body: Command(ReportInput),
    response: Envelope(Claim),
    errors: [
      'agent_not_found',
      'insufficient_role',
      'agent_header_mismatch',
      'issue_not_named',
      'no_coding_attempt',
      'coding_attempt_running',
      'pull_request_not_found',
      'pull_request_mismatch',
      'tracker_not_configured',
      'tracker_unavailable',
      'tracker_issue_not_found',
      'git_host_not_configured',
      'git_host_unavailable',
    ],
    run: (ctx, { params, body }, deps) => reportAttempt(ctx, params.id, body.data, deps),
  }),
];
