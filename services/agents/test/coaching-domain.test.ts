import { describe, expect, it } from 'vitest';
import { type CoachMeeting, type CoachPerson, meetingTime, seriesKey } from '../src/domain/coaching-meetings.ts';
import {
  aboutYou,
  COMMUNICATION_POINTS_MAX,
  checkCommunication,
  communicationPrompt,
  namesAny,
  otherNames,
  ownLines,
  replyJson,
} from '../src/domain/coaching-points.ts';
import { coachPerson } from '../src/domain/coaching-report.ts';
import { lastWeek, seriesWindowStart, weekOf } from '../src/domain/coaching-week.ts';

/**
 * Weekly coaching's rules in code (issue 20): the weeks, meeting time and series at their
 * boundaries, the checks every communication point passes, and about_you.
 */
const ALICE: CoachPerson = { email: 'alice.smith@coach.test', names: ['Alice Smith'] };
const WEEK = weekOf('2026-03-04'); // Monday 2026-03-02 .. Sunday 2026-03-08
let n = 0;
const meeting = (
  title: string,
  day: string,
  minutes: number,
  o: { decisions?: number; aliceSpeaks?: boolean; lines?: { speaker: string; text: string }[] } = {},
): CoachMeeting => {
  n += 1;
  const lines = o.lines ?? [
    { speaker: 'Bob Jones', text: 'Status from my side.' },
    ...(o.aliceSpeaks ? [{ speaker: 'Alice Smith', text: 'Mine is on track.' }] : []),
  ];
  return {
    id: `m${n}`,
    title,
    day,
    minutes,
    decisions: o.decisions ?? 0,
    self: [],
    lines: lines.map((l, i) => ({ seq: i + 1, ...l })),
  };
};
const raised = (meetings: CoachMeeting[]) => meetingTime(ALICE, WEEK, meetings).series;

describe('coaching weeks', () => {
  it('20 AGT-286 AGT-283 a week is Monday to Sunday in New York; the job’s default is the week before', () => {
    expect(weekOf('2026-03-02')).toEqual({ start: '2026-03-02', end: '2026-03-08' });
    expect(weekOf('2026-03-08')).toEqual({ start: '2026-03-02', end: '2026-03-08' });
    // 03:00 UTC on Monday is still Sunday evening in New York: last week is the one before that Sunday's.
    expect(lastWeek(new Date('2026-03-09T03:00:00Z'))).toEqual({ start: '2026-02-23', end: '2026-03-01' });
    expect(lastWeek(new Date('2026-03-09T12:00:00Z'))).toEqual(WEEK);
    expect(seriesWindowStart(WEEK)).toBe('2026-02-09');
  });
});

describe('meeting time', () => {
  it('20 AGT-295 AGT-296 the week’s one-line summary is counted from the meetings of the week only', () => {
    const t = meetingTime(ALICE, WEEK, [
      meeting('Design review', '2026-03-03', 90, { aliceSpeaks: true, decisions: 2 }),
      meeting('1:1', '2026-03-05', 30),
      meeting('Earlier', '2026-02-24', 60, { aliceSpeaks: true }),
    ]);
    expect(t).toMatchObject({ meetings: 2, minutes: 120, spoke_in: 1 });
    expect(t.summary).toBe('2 meetings, 2 h in all; you spoke in 1 of them; 1 ended with a decision.');
    expect(t.summary).not.toContain('\n');
    expect(meetingTime(ALICE, WEEK, []).summary).toBe('No meetings in the week of 2026-03-02.');
  });

  it('20 AGT-297 AGT-299 a series of exactly two hours with the person speaking in exactly a quarter is raised; 119 minutes or more than a quarter is not', () => {
    const series = (minutes: number[], spokeIn: number) =>
      ['2026-02-10', '2026-02-17', '2026-02-24', '2026-03-03'].map((d, i) =>
        meeting(`Design review ${i + 1}`, d, minutes[i] as number, { decisions: 1, aliceSpeaks: i < spokeIn }),
      );
    expect(raised(series([30, 30, 30, 30], 1))).toEqual([
      {
        id: 'series-1',
        title: 'Design review 4',
        meetings: 4,
        minutes: 120,
        spoke_in: 1,
        decisions: 4,
        reasons: ['long_and_quiet'],
      },
    ]);
    expect(raised(series([29, 30, 30, 30], 1))).toEqual([]);
    expect(raised(series([30, 30, 30, 30], 2))).toEqual([]);
    // Never speaking is within a quarter too.
    expect(raised(series([60, 60, 60, 60], 0)).map((s) => s.reasons)).toEqual([['long_and_quiet']]);
  });

  it('20 AGT-298 AGT-299 a series meeting three times with no decision is raised; twice, or three times with one decision, is not', () => {
    const standups = (days: string[], decisions: number[]) =>
      days.map((d, i) => meeting('Standup', d, 15, { decisions: decisions[i] ?? 0, aliceSpeaks: true }));
    expect(raised(standups(['2026-03-02', '2026-03-03', '2026-03-04'], [0, 0, 0]))).toMatchObject([
      { title: 'Standup', meetings: 3, minutes: 45, spoke_in: 3, decisions: 0, reasons: ['no_decisions'] },
    ]);
    expect(raised(standups(['2026-03-02', '2026-03-03'], [0, 0]))).toEqual([]);
    expect(raised(standups(['2026-03-02', '2026-03-03', '2026-03-04'], [0, 1, 0]))).toEqual([]);
  });

  it('20 AGT-297 AGT-298 both reasons are given when both hold; a series needs two meetings of one title', () => {
    const both = ['2026-02-16', '2026-02-23', '2026-03-02'].map((d) => meeting('Roadmap sync', d, 40));
    expect(raised(both).map((s) => s.reasons)).toEqual([['long_and_quiet', 'no_decisions']]);
    expect(raised([meeting('All hands', '2026-03-02', 180)])).toEqual([]);
    expect(seriesKey('Sprint 12 Review — 2026-03-02')).toBe(seriesKey('sprint 13 review'));
    expect(seriesKey('1:1')).toBe('');
  });

  it('20 AGT-300 a meeting four weeks and a day old is not used for series; one exactly four weeks old is', () => {
    // The window: the report's week and the three before it, 2026-02-09 .. 2026-03-08.
    const planning = (first: string) =>
      [first, '2026-02-16', '2026-02-23'].map((d) => meeting('Planning', d, 20, { aliceSpeaks: true }));
    expect(raised(planning('2026-02-08'))).toEqual([]);
    expect(raised(planning('2026-02-09'))).toMatchObject([{ title: 'Planning', meetings: 3 }]);
    // Later than the week is not used either.
    expect(raised([...planning('2026-02-08').slice(1), meeting('Planning', '2026-03-09', 20)])).toEqual([]);
  });
});

describe('communication points', () => {
  const weekly = meeting('Weekly sync', '2026-03-03', 60, {
    lines: [
      { speaker: 'Alice Smith', text: 'I think we should ship on Friday, but I am not sure.' },
      { speaker: 'Bob Jones', text: 'Alice, we are waiting on you for the budget numbers.' },
      { speaker: 'Alice Smith', text: 'Let me summarise: we ship Friday and review on Monday.' },
      { speaker: 'Dana Wu', text: 'Sounds good to me.' },
      { speaker: 'Alice Smith', text: 'Sorry, I was rambling again.' },
    ],
  });
  const lines = ownLines(ALICE, [weekly]);
  const others = otherNames(ALICE, [weekly]);
  const point = (line: string, quote: string, observation = 'You hedge the decision.', suggestion = 'State it.') => ({
    line,
    quote,
    observation,
    suggestion,
  });

  it('20 AGT-302 the model sees only the person’s own lines, labelled, and nothing else', () => {
    expect(lines.map((l) => [l.label, l.seq])).toEqual([
      ['L1', 1],
      ['L2', 3],
      ['L3', 5],
    ]);
    const prompt = communicationPrompt(lines);
    const user = prompt.find((m) => m.role === 'user')?.content ?? '';
    expect(user.split('\n')).toEqual([
      '[L1] I think we should ship on Friday, but I am not sure.',
      '[L2] Let me summarise: we ship Friday and review on Monday.',
      '[L3] Sorry, I was rambling again.',
    ]);
    const all = prompt.map((m) => m.content).join('\n');
    for (const s of ['Bob', 'Dana', 'waiting on you', 'Sounds good', 'Weekly sync']) expect(all).not.toContain(s);
  });

  it('20 AGT-304 an invented quote, a quote from another line or an unknown line is dropped', () => {
    const { points } = checkCommunication(
      {
        points: [
          point('L1', 'we should ship on Thursday'),
          point('L2', 'I was rambling again'),
          point('L9', 'Sorry'),
          point('L1', 'waiting on you for the budget numbers'),
          point('L3', 'I was rambling again'),
        ],
      },
      lines,
      others,
    );
    expect(points).toEqual([
      {
        id: 'comm-1',
        meeting_id: weekly.id,
        seq: 5,
        quote: 'I was rambling again',
        observation: 'You hedge the decision.',
        suggestion: 'State it.',
      },
    ]);
  });

  it('20 AGT-305 a point naming a colleague anywhere is dropped', () => {
    expect(others.sort()).toEqual(['bob', 'bob jones', 'dana', 'dana wu', 'jones', 'wu']);
    const { points } = checkCommunication(
      {
        points: [
          point('L1', 'ship on Friday', 'Unlike Bob, you hedge.'),
          point('L1', 'ship on Friday', 'You hedge.', 'Ask dana first.'),
          point('L2', 'Let me summarise', 'A clear summary.', 'Keep doing it.'),
        ],
      },
      lines,
      others,
    );
    expect(points.map((p) => p.quote)).toEqual(['Let me summarise']);
    expect(namesAny('Bobby tables', others)).toBe(false);
  });

  it('20 AGT-303 at most three points are kept however many pass', () => {
    const many = { points: Array.from({ length: 6 }, () => point('L2', 'we ship Friday')) };
    const { points, dropped } = checkCommunication(many, lines, others);
    expect(points).toHaveLength(COMMUNICATION_POINTS_MAX);
    expect(points.map((p) => p.id)).toEqual(['comm-1', 'comm-2', 'comm-3']);
    expect(dropped).toBe(3);
  });

  it('20 AGT-304 a reply that is not JSON, or JSON of another shape, gives no points; fenced JSON is read', () => {
    expect(checkCommunication(replyJson('gpt-4.1-mini heard: nothing useful'), lines, others).points).toEqual([]);
    expect(checkCommunication(replyJson('{"points": "many"}'), lines, others).points).toEqual([]);
    const fenced = `Here you go:\n\`\`\`json\n${JSON.stringify({ points: [point('L3', 'Sorry')] })}\n\`\`\``;
    expect(checkCommunication(replyJson(fenced), lines, others).points.map((p) => p.quote)).toEqual(['Sorry']);
  });
});

describe('about_you', () => {
  const m = meeting('Budget', '2026-03-04', 45, {
    lines: [
      { speaker: 'Bob Jones', text: 'Alice, we are waiting on you for the budget numbers.' },
      { speaker: 'Dana Wu', text: 'Thanks Alice for the summary, great work.' },
      { speaker: 'Alice Smith', text: 'Thanks Alice, says me to myself; I am worried.' },
      { speaker: 'Bob Jones', text: 'Alice, any update on the budget?' },
      { speaker: 'Dana Wu', text: 'I am worried the plan Alice Smith shared slips a week.' },
      { speaker: 'Erin Cho', text: 'I think Alice misunderstood the scope.' },
      { speaker: 'Erin Cho', text: 'I am worried about the vendor.' },
      { speaker: 'Erin Cho', text: 'Thanks Dana, great work.' },
    ],
  });
  const points = aboutYou(ALICE, [m], [...otherNames(ALICE, [m]), 'alice smith']);

  it('20 AGT-306 AGT-308 about_you quotes lines by others that name the person, whole, with their speaker', () => {
    expect(points.map((p) => [p.kind, p.speaker, p.quote, p.seq])).toEqual([
      ['waiting_on_you', 'Bob Jones', 'Alice, we are waiting on you for the budget numbers.', 1],
      ['credit', 'Dana Wu', 'Thanks Alice for the summary, great work.', 2],
      ['concern', 'Dana Wu', 'I am worried the plan Alice Smith shared slips a week.', 5],
      ['misunderstanding', 'Erin Cho', 'I think Alice misunderstood the scope.', 6],
    ]);
    for (const p of points) {
      const line = m.lines.find((l) => l.seq === p.seq);
      expect(line?.speaker).toBe(p.speaker);
      expect(line?.text).toBe(p.quote);
      expect(p.speaker).not.toBe('Alice Smith');
    }
  });

  it('20 AGT-307 about_you has at most one point of each kind', () => {
    const kinds = points.map((p) => p.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds.length).toBeLessThanOrEqual(4);
  });

  it('20 AGT-309 an about_you suggestion names nobody', () => {
    const names = [...otherNames(ALICE, [m]), 'alice', 'alice smith', 'smith'];
    for (const p of points) expect(namesAny(p.suggestion, names)).toBe(false);
  });

  it('20 AGT-306 the person is known by workspace’s speakers for them as well as by the name their email spells', () => {
    const labelled: CoachMeeting = { ...m, self: ['Speaker 2', 'Ali S.'] };
    const person = coachPerson('alice.smith@coach.test', [labelled]);
    expect(person.names).toEqual(['Alice Smith', 'Ali S.']);
    const lines = ownLines(person, [
      { ...labelled, lines: [{ seq: 1, speaker: 'Speaker 2', text: 'From the recorder.' }] },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['From the recorder.']);
  });
});
