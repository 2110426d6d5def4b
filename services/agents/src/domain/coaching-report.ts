import type { WsMeetingWithLines } from '../clients/workspace.ts';
import {
  type CoachMeeting,
  type CoachPerson,
  type MeetingTime,
  meetingTime,
  nameFromEmail,
  normalName,
} from './coaching-meetings.ts';
import {
  type AboutYouPoint,
  aboutYou,
  type CommunicationPoint,
  checkCommunication,
  type OwnLine,
  otherNames,
  ownLines,
} from './coaching-points.ts';
import { type CoachingWeek, dayInNewYork } from './coaching-week.ts';

/** A stored report (coaching_reports.report), as GET /v1/me/coaching answers it with its id. */
export interface CoachingReportBody {
  week: CoachingWeek;
  meeting_time: MeetingTime;
  /** null: the person is not in COACH_COMMUNICATION_RECIPIENTS (AGT-301). */
  communication: { points: CommunicationPoint[] } | null;
  about_you: { points: AboutYouPoint[] };
}

const MINUTE_MS = 60_000;

/** Workspace's meetings as coaching reads them: the New York day of the start, whole minutes, decisions, own speakers. */
export const coachMeetings = (ws: readonly WsMeetingWithLines[]): CoachMeeting[] =>
  ws.map((m) => ({
    id: m.id,
    title: m.title,
    day: dayInNewYork(new Date(m.started_at)),
    minutes: Math.round((m.duration_ms ?? 0) / MINUTE_MS),
    decisions: m.decisions_count,
    self: m.person_speakers,
    lines: m.utterances.map((u) => ({ seq: u.seq, speaker: u.speaker, text: u.text })),
  }));

const LABEL = /^(speaker|participant|guest|unknown)\b/i;

/** The person: their email, the name it spells, and every non-label speaker name workspace attributes to them. */
export function coachPerson(email: string, meetings: readonly CoachMeeting[]): CoachPerson {
  const names = new Map<string, string>();
  const add = (n: string) => {
    const k = normalName(n);
    if (k && !LABEL.test(n.trim()) && !names.has(k)) names.set(k, n);
  };
  add(nameFromEmail(email));
  for (const m of meetings) for (const s of m.self) add(s);
  return { email, names: [...names.values()] };
}

/** What the communication call needs and how its reply is checked (null: no call for this person). */
export interface CommunicationPlan {
  lines: OwnLine[];
  others: string[];
}

export function planCommunication(person: CoachPerson, weekMeetings: readonly CoachMeeting[]): CommunicationPlan {
  return { lines: ownLines(person, weekMeetings), others: otherNames(person, weekMeetings) };
}

/**
 * The report of one person's week from their meetings of the four weeks: meeting time and
 * about_you in code; the communication points from the model's reply, checked (null reply: the
 * person is not a communication recipient).
 */
export function buildReport(
  person: CoachPerson,
  week: CoachingWeek,
  meetings: readonly CoachMeeting[],
  communication: { plan: CommunicationPlan; reply: unknown } | null,
): CoachingReportBody {
  const weekMeetings = meetings.filter((m) => m.day >= week.start && m.day <= week.end);
  const others = otherNames(person, weekMeetings);
  return {
    week,
    meeting_time: meetingTime(person, week, meetings),
    communication: communication
      ? { points: checkCommunication(communication.reply, communication.plan.lines, communication.plan.others).points }
      : null,
    about_you: { points: aboutYou(person, weekMeetings, [...others, ...person.names.map(normalName)]) },
  };
}

/** Every point id of a report (the series, communication and about_you points): what feedback may name. */
export const pointIds = (r: CoachingReportBody): string[] => [
  ...r.meeting_time.series.map((s) => s.id),
  ...(r.communication?.points.map((p) => p.id) ?? []),
  ...r.about_you.points.map((p) => p.id),
];
