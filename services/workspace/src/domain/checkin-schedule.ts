/**
 * A goal's check-in state (spec 2, Goal): computed at each read, never stored, from the
 * project's checkin_weekday, the goal's creation time and its latest check-in.
 *
 * The rules, all in the New York calendar (DECISIONS item 7):
 * - A due day is a date whose ISO weekday (1 Monday .. 5 Friday) is the project's checkin_weekday.
 * - The window of a due day D is the seven dates D-6 .. D: a check-in on any of them counts for D,
 *   so checking in a few days early is on time.
 * - A goal is under one week old until its creation's New York wall-clock time seven dates later
 *   (created Monday 09:30 → one week old the next Monday at 09:30, whatever DST did in between).
 *   Its first due day is the first due day on or after its creation date + 7. Before that day,
 *   and while it is under one week old, it is current and next_checkin_on is its first due day
 *   (never before today).
 * - Otherwise only the latest due day on or before today (D) matters:
 *   - current when the latest check-in is on or after D-6 (in D's window, or late, after D);
 *     next_checkin_on is the following due day (D+7);
 *   - due on D itself without such a check-in; next_checkin_on is D;
 *   - overdue after D without such a check-in, until a check-in or the next due day (which
 *     is due again); next_checkin_on is D.
 * So a late check-in (after D) makes the goal current; as it lies in the window of D+7, it
 * also counts for D+7.
 */

export const CHECKIN_STATES = ['current', 'due', 'overdue'] as const;
export type CheckinState = (typeof CHECKIN_STATES)[number];

export const CHECKIN_TIMEZONE = 'America/New_York';

const DAY_MS = 24 * 60 * 60 * 1000;

const nyFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: CHECKIN_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const nyClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: CHECKIN_TIMEZONE,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The New York calendar date (YYYY-MM-DD) of an instant. */
export const nyDate = (instant: Date): string => nyFormat.format(instant);

/** The New York wall-clock time of an instant, HH:MM:SS.mmm (sorts as text). */
const nyTime = (instant: Date): string =>
  `${nyClock.format(instant)}.${String(instant.getUTCMilliseconds()).padStart(3, '0')}`;

/** Whether the goal is under one week old at `now` (see the rules above). */
export const underOneWeekOld = (createdAt: Date, now: Date): boolean =>
  `${nyDate(now)} ${nyTime(now)}` < `${addDays(nyDate(createdAt), 7)} ${nyTime(createdAt)}`;

/** A date (YYYY-MM-DD) plus n days (calendar arithmetic; no time zone involved). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of a date: 1 Monday .. 7 Sunday. */
export function isoWeekday(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The latest date on or before `date` whose ISO weekday is `weekday`. */
export const dueDayOnOrBefore = (date: string, weekday: number): string =>
  addDays(date, -((isoWeekday(date) - weekday + 7) % 7));

/** The first date on or after `date` whose ISO weekday is `weekday`. */
export const dueDayOnOrAfter = (date: string, weekday: number): string =>
  addDays(date, (weekday - isoWeekday(date) + 7) % 7);

export interface ScheduleInput {
  now: Date;
  /** The project's checkin_weekday: 1 (Monday) to 5 (Friday). */
  weekday: number;
  createdAt: Date;
  /** The latest check-in's created_at; null before the first. */
  lastCheckinAt: Date | null;
}

export interface Schedule {
  state: CheckinState;
  /** YYYY-MM-DD in New York: the due day while due or overdue, else the next due day. */
  next_checkin_on: string;
}

/** The check-in state of an active goal at `now` (closed goals have none). */
export function checkinSchedule({ now, weekday, createdAt, lastCheckinAt }: ScheduleInput): Schedule {
  const today = nyDate(now);
  const firstDue = dueDayOnOrAfter(addDays(nyDate(createdAt), 7), weekday);
  const latestDue = dueDayOnOrBefore(today, weekday);
  if (underOneWeekOld(createdAt, now) || latestDue < firstDue) {
    return { state: 'current', next_checkin_on: firstDue };
  }
  const last = lastCheckinAt ? nyDate(lastCheckinAt) : null;
  if (last !== null && last >= addDays(latestDue, -6)) {
    return { state: 'current', next_checkin_on: addDays(latestDue, 7) };
  }
  return { state: latestDue === today ? 'due' : 'overdue', next_checkin_on: latestDue };
}
