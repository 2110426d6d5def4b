/**
 * Coaching weeks (AGT-283, AGT-286, AGT-300): Monday to Sunday, calendar days in New York. The
 * job writes last week's report by default; `week` takes any date in the week. Series look at the
 * past four weeks: the report's week and the three before it, 28 calendar days ending on its Sunday.
 */
export const COACHING_TIMEZONE = 'America/New_York';
export const SERIES_WEEKS = 4;

const DAY_MS = 24 * 60 * 60 * 1000;
const nyDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: COACHING_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day of an instant in New York, YYYY-MM-DD. */
export const dayInNewYork = (at: Date): string => nyDay.format(at);

// Calendar arithmetic on noon UTC: no daylight-saving edge can move a day.
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(new Date(noon(day).getTime() + n * DAY_MS));

export interface CoachingWeek {
  /** The Monday, YYYY-MM-DD. */
  start: string;
  /** The Sunday, YYYY-MM-DD. */
  end: string;
}

/** The week (Monday to Sunday) holding a calendar day. */
export function weekOf(day: string): CoachingWeek {
  const weekday = noon(day).getUTCDay(); // 0 Sunday .. 6 Saturday
  const start = addDays(day, weekday === 0 ? -6 : 1 - weekday);
  return { start, end: addDays(start, 6) };
}

/** The week before the one holding `now` in New York: what the weekly job writes by default. */
export const lastWeek = (now: Date): CoachingWeek => weekOf(addDays(weekOf(dayInNewYork(now)).start, -7));

/** The first day series are counted from: the Monday three weeks before the report's week (AGT-300). */
export const seriesWindowStart = (week: CoachingWeek): string => addDays(week.start, -7 * (SERIES_WEEKS - 1));

/** Whether `day` is a real calendar day written YYYY-MM-DD. */
export const isCalendarDay = (day: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(noon(day).getTime()) && dayOf(noon(day)) === day;
