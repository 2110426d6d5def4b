import { conflict, unprocessable } from '@platform/kit';
import { GATED_STAGES, STAGES, type Stage } from './health.ts';
import { requireActiveProject } from './projects.ts';

/**
 * The seven stages and the moves between them (spec 3, States): a project starts in initiation,
 * advance moves exactly one stage forward when the gate of the stage being left allows, closeout
 * is left only by completing the project.
 */

export const STAGE_STATUSES = ['done', 'current', 'upcoming'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export const isStage = (s: string): s is Stage => (STAGES as readonly string[]).includes(s);
export const isGated = (s: Stage) => GATED_STAGES.includes(s);

/** done: before the current stage, or every stage of a completed project; current; upcoming. */
export function stageStatus(stage: Stage, current: Stage, projectStatus: string): StageStatus {
  if (projectStatus === 'completed') return 'done';
  const i = STAGES.indexOf(stage);
  const c = STAGES.indexOf(current);
  return i < c ? 'done' : i === c ? 'current' : 'upcoming';
}

/**
 * The stage an advance moves to, checked in this order: the project takes work (409
 * project_closed) and is active (409 project_on_hold); from_stage is the current stage (409
 * stage_moved); the current stage is not closeout (409 last_stage); leaving award carries the
 * award (422 award_required). The gate (409 no_approved_gate) is checked by the command after, as
 * it reads the approvals.
 */
export function planAdvance(
  project: { status: string; stage: string },
  fromStage: Stage,
  hasAward: boolean,
): { from: Stage; to: Stage } {
  requireActiveProject(project);
  if (project.stage !== fromStage) {
    throw conflict('stage_moved', `The project is in ${project.stage}, not ${fromStage}`);
  }
  const i = STAGES.indexOf(fromStage);
  const to = STAGES[i + 1];
  if (to === undefined) throw conflict('last_stage', 'The project is in closeout: complete it instead');
  if (fromStage === 'award' && !hasAward) {
    throw unprocessable(
      'award_required',
      'Leaving award takes the award (contract_sum_minor, completion_date)',
      'data.award',
    );
  }
  return { from: fromStage, to };
}

export function requireGate(stage: Stage, approved: boolean) {
  if (isGated(stage) && !approved) {
    throw conflict('no_approved_gate', `Leaving ${stage} needs an approved stage_gate approval for ${stage}`);
  }
}

/** complete: only an active project in closeout (409 project_closed, project_on_hold, not_in_closeout). */
export function requireCompletable(project: { status: string; stage: string }) {
  requireActiveProject(project);
  if (project.stage !== 'closeout') {
    throw conflict('not_in_closeout', `The project is in ${project.stage}: it completes only from closeout`);
  }
}
