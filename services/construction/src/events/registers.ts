import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Events of the registers: decisions, approvals, risks (ids and short values, never emails). */
export const REGISTER_EVENTS = {
  'decision.opened': {
    description: 'A decision (a question with alternatives and participants) was opened on a project',
    payload: Type.Object({
      decision_id: Uuid,
      project_id: Uuid,
      alternatives: Type.Integer(),
      actor_fid: Type.String(),
    }),
  },
  'decision.recorded': {
    description: "A decision's outcome and cost were recorded; it is settled",
    payload: Type.Object({
      decision_id: Uuid,
      project_id: Uuid,
      alternative_id: Nullable(Uuid),
      cost_minor: Type.Integer(),
      actor_fid: Type.String(),
    }),
  },
  'approval.requested': {
    description: 'Review of a stage gate, a decision, a budget or a variation was requested',
    payload: Type.Object({
      approval_id: Uuid,
      project_id: Uuid,
      subject_type: Type.String(),
      subject_id: Nullable(Uuid),
      stage: Nullable(Type.String()),
      reviewers: Type.Integer(),
      actor_fid: Type.String(),
    }),
  },
  'approval.answered': {
    description: 'A named reviewer answered an approval as themselves',
    payload: Type.Object({
      approval_id: Uuid,
      project_id: Uuid,
      response: Type.String(),
      required: Type.Boolean(),
      actor_fid: Type.String(),
    }),
  },
  'approval.settled': {
    description: 'The last required reviewer answered: the approval is approved or rejected',
    payload: Type.Object({
      approval_id: Uuid,
      project_id: Uuid,
      subject_type: Type.String(),
      subject_id: Nullable(Uuid),
      stage: Nullable(Type.String()),
      status: Type.String(),
    }),
  },
  'risk.raised': {
    description: 'A risk was raised on a project (status open)',
    payload: Type.Object({ risk_id: Uuid, project_id: Uuid, actor_fid: Type.String() }),
  },
  'risk.status_changed': {
    description: "A risk's status changed (open, mitigated, closed, happened)",
    payload: Type.Object({
      risk_id: Uuid,
      project_id: Uuid,
      from: Type.String(),
      to: Type.String(),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
