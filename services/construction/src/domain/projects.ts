import { conflict } from '@platform/kit';
import { dayOf, freshness, health, PHASE_OF, type Stage } from './health.ts';

export const PROJECT_KINDS = ['master_plan', 'ground_up', 'conversion', 'capital_improvement'] as const;
export type ProjectKind = (typeof PROJECT_KINDS)[number];
export const PROJECT_STATUSES = ['active', 'on_hold', 'cancelled', 'completed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** What the status route sets; completed comes only from the complete route. */
export const SETTABLE_STATUSES = ['on_hold', 'active', 'cancelled'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** The portfolio's and the activity feed's pages: 50 by default, at most 200. */
export const PROJECT_PAGE = { pageSize: 50, maxPageSize: 200 };

/** A completed or cancelled project takes no more work (CON-034, CON-035). */
export function requireOpenProject(project: { status: string }) {
  if (project.status === 'completed' || project.status === 'cancelled') {
    throw conflict('project_closed', `The project is ${project.status} and takes no more work`);
  }
}

/** An on-hold project keeps taking records but does not move through its stages (advance, complete). */
export function requireActiveProject(project: { status: string }) {
  requireOpenProject(project);
  if (project.status === 'on_hold') {
    throw conflict('project_on_hold', 'The project is on hold: make it active before moving its stage');
  }
}

/**
 * The status route's moves: active <-> on_hold, and cancel from either (completed and cancelled
 * are refused before, 409 project_closed). The same status again changes nothing (null).
 */
export function statusMove(from: ProjectStatus, to: SettableStatus): SettableStatus | null {
  requireOpenProject({ status: from });
  return from === to ? null : to;
}

/** The stored row a project view is made from. */
export interface ProjectRow {
  id: string;
  code: string;
  name: string;
  kind: string;
  status: string;
  stage: string;
  owner_fid: string | null;
  region: string | null;
  description: string;
  progress: number;
  next_milestone_due: string | null;
  last_update_on: string | null;
  budget_minor: number;
  committed_minor: number;
  actual_minor: number;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const isoOf = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The project as reads show it: health, phase and freshness computed from its kept figures as of `now`. */
export function projectView(row: ProjectRow, now: Date) {
  const today = dayOf(now);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind as ProjectKind,
    status: row.status as ProjectStatus,
    stage: row.stage as Stage,
    phase: PHASE_OF[row.stage as Stage],
    owner_fid: row.owner_fid,
    region: row.region,
    description: row.description,
    health: health(row, today),
    progress: Number(row.progress),
    freshness: freshness(row.last_update_on, today),
    next_milestone_due: row.next_milestone_due,
    last_update_on: row.last_update_on,
    budget_minor: Number(row.budget_minor),
    committed_minor: Number(row.committed_minor),
    actual_minor: Number(row.actual_minor),
    created_by: row.created_by,
    created_at: isoOf(row.created_at),
    updated_at: isoOf(row.updated_at),
  };
}

/** The project fields a PUT changes: those sent that differ from the row. */
export function projectChanges<T extends Record<string, unknown>>(row: Record<string, unknown>, input: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    if (k === 'code' && typeof v === 'string' && v === row.code) continue;
    if (row[k] !== v) out[k] = v;
  }
  return out as Partial<T>;
}
