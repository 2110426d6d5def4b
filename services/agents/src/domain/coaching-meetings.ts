import { type CoachingWeek, seriesWindowStart } from './coaching-week.ts';

/** One line of a meeting as coaching reads it (the workspace utterance: seq, speaker, text). */
export interface CoachLine {
  seq: number;
  speaker: string;
  text: string;
}

/** One of the person's workspace meetings, as coaching needs it. */
export interface CoachMeeting {
  id: string;
  title: string;
  /** The calendar day it took place in New York, YYYY-MM-DD. */
  day: string;
  /** How long it took, in whole minutes. */
  minutes: number;
  /** Decisions recorded from it. */
  decisions: number;
  /** The speaker names of its lines that are the person (workspace's person_speakers). */
  self: string[];
  lines: CoachLine[];
}

/** Who the report is for: their email and the names their lines carry as speaker. */
export interface CoachPerson {
  email: string;
  /** Full names as speakers and colleagues write them (at least one, from the email when nothing better). */
  names: string[];
}

/** Lower case, punctuation to spaces, spaces collapsed: how names and speakers are compared. */
export const normalName = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@]+/gu, ' ')
    .trim();

/** A name from an email's local part: alice.smith@x -> Alice Smith. */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Whether a line was spoken by the person: its speaker is one of their names or their email. */
export function spokenBy(person: CoachPerson, speaker: string): boolean {
  const s = normalName(speaker);
  if (s === normalName(person.email) || s === normalName(person.email.split('@')[0] ?? '')) return true;
  return person.names.some((n) => normalName(n) === s);
}

/** Whether a line of this meeting is the person's: a speaker workspace attributes to them, or one of their names. */
export const isOwnLine = (person: CoachPerson, m: CoachMeeting, speaker: string): boolean =>
  spokenBy(person, speaker) || m.self.some((s) => normalName(s) === normalName(speaker));

/**
 * A series (docs/decisions.md, coaching): meetings whose titles agree once dates, numbers and
 * punctuation are left out ("Sprint 12 review" and "Sprint 13 Review" are one series) and that
 * met at least twice in the four weeks. An untitled meeting belongs to no series.
 */
export function seriesKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
    .replace(/\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, ' ')
    .replace(/\d+/g, ' ')
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

export const RAISE_MINUTES = 120;
export const RAISE_NO_DECISION_MEETINGS = 3;
/** The share of a series' meetings the person may speak in and still have it raised for time. */
export const RAISE_SPOKE_SHARE = 0.25;

export type SeriesReason = 'long_and_quiet' | 'no_decisions';

export interface RaisedSeries {
  id: string;
  title: string;
  meetings: number;
  minutes: number;
  spoke_in: number;
  decisions: number;
  reasons: SeriesReason[];
}

export interface MeetingTime {
  /** One line about the week (AGT-296). */
  summary: string;
  meetings: number;
  minutes: number;
  spoke_in: number;
  /** Series of the past four weeks raised by either condition (AGT-297, AGT-298). */
  series: RaisedSeries[];
}

const spoke = (person: CoachPerson, m: CoachMeeting) => m.lines.some((l) => isOwnLine(person, m, l.speaker));
const inRange = (day: string, from: string, to: string) => day >= from && day <= to;

export function hoursAndMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The meeting-time part, counted in code (AGT-295): the week's one-line summary, and the series
 * of the four weeks ending with it that took at least two hours with the person speaking in at
 * most a quarter of their meetings, or met at least three times with no decision (AGT-297..300).
 */
export function meetingTime(person: CoachPerson, week: CoachingWeek, meetings: readonly CoachMeeting[]): MeetingTime {
  const thisWeek = meetings.filter((m) => inRange(m.day, week.start, week.end));
  const minutes = thisWeek.reduce((s, m) => s + m.minutes, 0);
  const spokeIn = thisWeek.filter((m) => spoke(person, m)).length;
  const decided = thisWeek.filter((m) => m.decisions > 0).length;
  const summary =
    thisWeek.length === 0
      ? `No meetings in the week of ${week.start}.`
      : `${plural(thisWeek.length, 'meeting', 'meetings')}, ${hoursAndMinutes(minutes)} in all; you spoke in ` +
        `${spokeIn} of them; ${decided} ended with a decision.`;

  const from = seriesWindowStart(week);
  const groups = new Map<string, CoachMeeting[]>();
  for (const m of meetings) {
    if (!inRange(m.day, from, week.end)) continue;
    const key = seriesKey(m.title);
    if (!key) continue;
    const g = groups.get(key);
    if (g) g.push(m);
    else groups.set(key, [m]);
  }
  const series: RaisedSeries[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const total = group.reduce((s, m) => s + m.minutes, 0);
    const spokeInSeries = group.filter((m) => spoke(person, m)).length;
    const decisions = group.reduce((s, m) => s + m.decisions, 0);
    const reasons: SeriesReason[] = [];
    if (total >= RAISE_MINUTES && spokeInSeries <= group.length * RAISE_SPOKE_SHARE) reasons.push('long_and_quiet');
    if (group.length >= RAISE_NO_DECISION_MEETINGS && decisions === 0) reasons.push('no_decisions');
    if (reasons.length === 0) continue;
    const latest = [...group].sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0))[0] as CoachMeeting;
    series.push({
      id: `series-${series.length + 1}`,
      title: latest.title,
      meetings: group.length,
      minutes: total,
      spoke_in: spokeInSeries,
      decisions,
      reasons,
    });
  }
  return { summary, meetings: thisWeek.length, minutes, spoke_in: spokeIn, series };
}
