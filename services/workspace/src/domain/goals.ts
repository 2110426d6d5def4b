import { forbidden, notFound, unprocessable } from '@platform/kit';
import { checkinSchedule } from './checkin-schedule.ts';
import { trimmedText } from './text.ts';

/**
 * Goal rules (spec 2, Goal, Goal status, Limits): statuses, titles, the five active goals, who
 * may change what, closing notes, check-in notes, and the read shape with its computed
 * check-in fields.
 */

export const OPEN_GOAL_STATUSES = ['on_track', 'at_risk', 'off_track'] as const;
export const CLOSED_GOAL_STATUSES = ['achieved', 'missed', 'dropped'] as const;
export const GOAL_STATUSES = [...OPEN_GOAL_STATUSES, ...CLOSED_GOAL_STATUSES] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];
export type OpenGoalStatus = (typeof OPEN_GOAL_STATUSES)[number];

/** A check-in's status: one of the open goal statuses. */
export const CHECKIN_STATUSES = OPEN_GOAL_STATUSES;
export type CheckinStatus = OpenGoalStatus;

export const isClosedGoalStatus = (s: string) => (CLOSED_GOAL_STATUSES as readonly string[]).includes(s);

export const MAX_ACTIVE_GOALS = 5;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 20_000;
export const CLOSING_NOTE_MAX = 2_000;
export const NOTE_MAX = 500;
/** GET .../checkins pages: 25 by default, 100 at most (more is 422, as the schema says). */
export const CHECKIN_PAGE = { pageSize: 25, maxPageSize: 100 };

export const goalNotFound = () => notFound('Goal', 'goal_not_found');

/** Trimmed; 1 to 200 characters, else 422 invalid_title naming the limit. */
export const goalTitle = (raw: string, field = 'data/title'): string =>
  trimmedText(raw, { max: TITLE_MAX, code: 'invalid_title', what: 'The goal title', field });

/** The lead must be a member of the project (any role), else 422 lead_not_member. */
export function requireLeadMember(isMember: boolean, field = 'data/lead'): void {
  if (!isMember) throw unprocessable('lead_not_member', 'The lead must be a member of the project', field);
}

/** A sixth active goal (created, or reopened) is 422 too_many_active_goals. */
export function requireRoomForActiveGoal(otherActive: number, field = 'data/status'): void {
  if (otherActive >= MAX_ACTIVE_GOALS) {
    throw unprocessable(
      'too_many_active_goals',
      `A project has at most ${MAX_ACTIVE_GOALS} active goals; close one first`,
      field,
    );
  }
}

/** A closing note as stored: trimmed; empty is none; at most 2,000 characters. */
export function closingNote(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const note = raw.trim();
  if (note.length > CLOSING_NOTE_MAX) {
    throw unprocessable(
      'invalid_closing_note',
      `The closing note must be at most ${CLOSING_NOTE_MAX} characters after trimming`,
      'data/closing_note',
    );
  }
  return note === '' ? null : note;
}

/** A check-in note: trimmed, one line (no line break inside), 1 to 500 characters. */
export function checkinNote(raw: string): string {
  const note = raw.trim();
  if (/[\r\n]/.test(note)) {
    throw unprocessable('note_not_one_line', 'The check-in note must be one line (no line breaks)', 'data/note');
  }
  if (note.length < 1 || note.length > NOTE_MAX) {
    throw unprocessable(
      'invalid_note',
      `The check-in note must be 1 to ${NOTE_MAX} characters after trimming (it has ${note.length})`,
      'data/note',
    );
  }
  return note;
}

/** Who may check in: the goal's lead or a project owner (by membership); else 403 not_a_member. */
export function requireCheckinAuthor(isOwner: boolean, isLead: boolean): void {
  if (!isOwner && !isLead) {
    throw forbidden('Only the goal lead or a project owner may post a check-in', 'not_a_member');
  }
}

/** Only an active goal takes check-ins: a closed one is 422 goal_closed. */
export function requireOpenGoal(status: string): void {
  if (isClosedGoalStatus(status)) {
    throw unprocessable('goal_closed', 'The goal is closed; reopen it to check in', 'goal_id');
  }
}

/** A goal with check-ins cannot be deleted: 422 goal_has_checkins (close it as dropped instead). */
export function requireNoCheckins(has: boolean): void {
  if (has) {
    throw unprocessable('goal_has_checkins', 'A goal with check-ins cannot be deleted; close it as dropped instead');
  }
}

/**
 * How a status change moves closed_at: set when the goal closes, cleared when it reopens,
 * unchanged (undefined) otherwise, closed to closed included.
 */
export function closedAtChange(before: string, after: string | undefined, now: Date): Date | null | undefined {
  if (after === undefined || isClosedGoalStatus(before) === isClosedGoalStatus(after)) return undefined;
  return isClosedGoalStatus(after) ? now : null;
}

/** A goal's stored fields, as the store hands them on. */
export interface GoalRecord {
  id: string;
  project_id: string;
  title: string;
  description: string;
  lead: string;
  target_date: string | null;
  status: GoalStatus;
  closing_note: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** Fields a PATCH may change, as it would store them. */
export type GoalChanges = Partial<
  Pick<GoalRecord, 'title' | 'description' | 'lead' | 'target_date' | 'status' | 'closing_note'>
>;

export interface GoalEdit {
  title?: string;
  description?: string;
  lead?: string;
  target_date?: string | null;
  status?: GoalStatus;
  closing_note?: string | null;
}

/**
 * What a PATCH changes (fields sent with their current value change nothing), checked:
 * - owners change anything; the lead (not an owner) only status and closing_note, anything else
 *   403; anyone else 403;
 * - a closed goal always has a closing note: closing (or staying closed) without one is 422
 *   closing_note_required; reopening clears it; a closing note on a goal that stays open is
 *   422 closing_note_not_allowed.
 * Whether the lead is a member and whether a reopened goal has room are for the caller to check.
 */
export function planGoalEdit(
  goal: GoalRecord,
  edit: GoalEdit,
  who: { isOwner: boolean; isLead: boolean },
): { changes: GoalChanges; changedFields: string[]; reopens: boolean } {
  if (!who.isOwner && !who.isLead) {
    throw forbidden('Only project owners and the goal lead may change a goal');
  }
  if (!who.isOwner) {
    // Checked before any other rule. A field sent with its current value is no change.
    const other = [
      edit.title !== undefined && edit.title.trim() !== goal.title && 'title',
      edit.description !== undefined && edit.description !== goal.description && 'description',
      edit.lead !== undefined && edit.lead !== goal.lead && 'lead',
      edit.target_date !== undefined && edit.target_date !== goal.target_date && 'target_date',
    ].filter(Boolean);
    if (other.length > 0) {
      throw forbidden(`The goal lead may change only status and closing_note, not ${other.join(', ')}`);
    }
  }
  const wanted: GoalChanges = {};
  if (edit.title !== undefined) wanted.title = goalTitle(edit.title);
  if (edit.description !== undefined) wanted.description = edit.description;
  if (edit.lead !== undefined) wanted.lead = edit.lead;
  if (edit.target_date !== undefined) wanted.target_date = edit.target_date;
  if (edit.status !== undefined) wanted.status = edit.status;
  if (edit.closing_note !== undefined) wanted.closing_note = closingNote(edit.closing_note);

  const status = wanted.status ?? goal.status;
  const closed = isClosedGoalStatus(status);
  if (!closed) {
    if (wanted.closing_note != null) {
      throw unprocessable(
        'closing_note_not_allowed',
        'A closing note is written when closing the goal (achieved, missed or dropped)',
        'data/closing_note',
      );
    }
    // Reopening clears the closing note.
    if (isClosedGoalStatus(goal.status)) wanted.closing_note = null;
  } else {
    const note = wanted.closing_note !== undefined ? wanted.closing_note : goal.closing_note;
    if (note == null) {
      throw unprocessable(
        'closing_note_required',
        'Closing a goal (achieved, missed or dropped) needs a closing note',
        'data/closing_note',
      );
    }
  }

  const changes: GoalChanges = {};
  for (const [key, value] of Object.entries(wanted) as [keyof GoalChanges, unknown][]) {
    if (value !== goal[key]) (changes as Record<string, unknown>)[key] = value;
  }
  const changedFields = Object.keys(changes);
  return {
    changes,
    changedFields,
    reopens: isClosedGoalStatus(goal.status) && changes.status !== undefined && !closed,
  };
}

/** What a read adds to the stored goal: contributors and the latest check-in. */
export interface GoalExtras {
  contributors: string[];
  lastCheckin: { created_at: Date; status: CheckinStatus } | null;
}

/**
 * The goal as reads show it. last_checkin_* are absent before the first check-in; checkin_state
 * and next_checkin_on are computed now from the project's check-in weekday, and absent on
 * closed goals.
 */
export function goalView(goal: GoalRecord, extras: GoalExtras, weekday: number, now: Date) {
  const view = {
    id: goal.id,
    project_id: goal.project_id,
    title: goal.title,
    description: goal.description,
    lead: goal.lead,
    target_date: goal.target_date,
    status: goal.status,
    closing_note: goal.closing_note,
    created_by: goal.created_by,
    created_at: goal.created_at.toISOString(),
    updated_at: goal.updated_at.toISOString(),
    contributors: extras.contributors,
  };
  const last = extras.lastCheckin
    ? { last_checkin_at: extras.lastCheckin.created_at.toISOString(), last_checkin_status: extras.lastCheckin.status }
    : {};
  if (isClosedGoalStatus(goal.status)) return { ...view, ...last };
  const s = checkinSchedule({
    now,
    weekday,
    createdAt: goal.created_at,
    lastCheckinAt: extras.lastCheckin?.created_at ?? null,
  });
  return { ...view, ...last, checkin_state: s.state, next_checkin_on: s.next_checkin_on };
}
