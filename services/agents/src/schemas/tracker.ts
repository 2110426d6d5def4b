import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { CHECK_KINDS } from '../clients/checks.ts';
import { CLAIM_REPOSITORIES } from '../domain/tracker.ts';
import { Enum } from './common.ts';

const IssueKey = Type.String({
  minLength: 3,
  maxLength: 50,
  pattern: '^[A-Z][A-Z0-9_]*-[1-9][0-9]*$',
  description: 'A tracker issue key (PLAT-123): the one named in the instructions of the top of the agent’s chain',
});

export const IssueInput = Type.Object(
  {
    issue_key: Type.Optional({
      ...IssueKey,
      description: `${IssueKey.description}; omitted: that issue`,
    }),
  },
  { additionalProperties: false },
);
export type IssueInput = Static<typeof IssueInput>;
/** tracker/read and tracker/investigate: reads, not commands (no Idempotency-Key). */
export const IssueBody = Type.Object({ data: IssueInput }, { additionalProperties: false });

export const RecommendationInput = Type.Object(
  {
    issue_key: IssueKey,
    text: Type.String({ minLength: 1, maxLength: 20_000, description: 'The recommendation, posted as the comment' }),
  },
  { additionalProperties: false },
);
export type RecommendationInput = Static<typeof RecommendationInput>;

export const ClaimInput = Type.Object(
  {
    issue_key: IssueKey,
    repository: Enum(CLAIM_REPOSITORIES, 'The repository the coding agent works in'),
  },
  { additionalProperties: false },
);
export type ClaimInput = Static<typeof ClaimInput>;

export const ReportInput = Type.Object(
  {
    issue_key: IssueKey,
    pull_request: Type.Integer({
      minimum: 1,
      description: 'The pull request number, in the claimed repository, that the finished attempt opened',
    }),
  },
  { additionalProperties: false },
);
export type ReportInput = Static<typeof ReportInput>;

export const TrackerIssueView = Type.Object({
  issue_key: Type.String(),
  summary: Type.String(),
  status: Type.String({ description: 'The status’s name in the tracker' }),
  description: Type.String({ description: 'The description as plain text' }),
});
export type TrackerIssueView = Static<typeof TrackerIssueView>;

export const CheckResultView = Type.Object({
  check: Enum(CHECK_KINDS),
  outcome: Enum(['ok', 'problem', 'not_found', 'unavailable'] as const),
  summary: Type.String(),
});

export const Investigation = Type.Object({
  issue_key: Type.String(),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'The email the checks looked at; null when the issue has none',
  }),
  comment: Type.String({ description: 'The comment to post: this route posts nothing' }),
  checks: Type.Array(CheckResultView, { description: 'One per check; empty when there is no email' }),
});
export type Investigation = Static<typeof Investigation>;

export const Recommendation = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  issue_key: Type.String(),
  text: Type.String(),
  comment_id: Type.String({ description: 'The tracker’s id of the comment that carried it' }),
  created_at: Timestamp,
});
export type Recommendation = Static<typeof Recommendation>;

export const Claim = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  issue_key: Type.String(),
  repository: Enum(CLAIM_REPOSITORIES),
  branch: Type.String(),
  path_prefix: Type.Union([Type.String(), Type.Null()]),
  coding_agent_id: Uuid,
  pull_request_url: Type.Union([Type.String(), Type.Null()], { description: 'Set once the report commented it' }),
  comment_id: Type.Union([Type.String(), Type.Null()]),
  reported_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});
export type Claim = Static<typeof Claim>;
