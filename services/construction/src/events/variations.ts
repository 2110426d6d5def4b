import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const ids = { variation_id: Uuid, project_id: Uuid };

/** Events of variations (ids and short values, never emails). */
export const VARIATION_EVENTS = {
  'variation.drafted': {
    description: 'A variation was drafted on an awarded project',
    payload: Type.Object({ ...ids, actor_fid: Type.String() }),
  },
  'variation.priced': {
    description: 'A variation got (or changed) its cost change and days',
    payload: Type.Object({ ...ids, cost_change_minor: Type.Integer(), days: Type.Integer(), actor_fid: Type.String() }),
  },
  'variation.submitted': {
    description: 'A priced variation was submitted for approval; approval_id is the review it requested',
    payload: Type.Object({ ...ids, approval_id: Uuid, actor_fid: Type.String() }),
  },
  'variation.approved': {
    description: "A variation's last required reviewer answered and every required reviewer approved",
    payload: Type.Object({ ...ids, approval_id: Uuid }),
  },
  'variation.rejected': {
    description: "A variation's last required reviewer answered and a required reviewer rejected it",
    payload: Type.Object({ ...ids, approval_id: Uuid }),
  },
  'variation.incorporated': {
    description: 'An approved variation was incorporated: baseline_id is the new newest baseline',
    payload: Type.Object({
      ...ids,
      baseline_id: Uuid,
      seq: Type.Integer(),
      amount_minor: Type.Integer(),
      finish_date: Type.String(),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
