import { describe, expect, it } from 'vitest';
import {
  addDays,
  checkinSchedule,
  dueDayOnOrAfter,
  dueDayOnOrBefore,
  isoWeekday,
  nyDate,
  underOneWeekOld,
} from '../src/domain/checkin-schedule.ts';

/**
 * The check-in schedule as pure functions (src/domain/checkin-schedule.ts). June 2025 is EDT
 * (UTC-4): 2025-06-16 is a Monday. DST began 2025-03-09 and ended 2025-11-02.
 */
const at = (iso: string) => new Date(iso);
const CREATED = at('2025-06-16T15:00:00Z'); // Monday 11:00 in New York

const schedule = (now: string, weekday: number, lastCheckinAt: string | null = null, createdAt = CREATED) =>
  checkinSchedule({ now: at(now), weekday, createdAt, lastCheckinAt: lastCheckinAt ? at(lastCheckinAt) : null });

describe('calendar helpers', () => {
  it('WS-195 dates are New York calendar dates, not UTC dates', () => {
    expect(nyDate(at('2025-06-17T03:59:59Z'))).toBe('2025-06-16');
    expect(nyDate(at('2025-06-17T04:00:00Z'))).toBe('2025-06-17');
    // Winter: UTC-5.
    expect(nyDate(at('2025-01-07T04:59:59Z'))).toBe('2025-01-06');
    expect(nyDate(at('2025-01-07T05:00:00Z'))).toBe('2025-01-07');
    // The DST days themselves.
    expect(nyDate(at('2025-03-09T04:59:00Z'))).toBe('2025-03-08');
    expect(nyDate(at('2025-03-10T03:59:00Z'))).toBe('2025-03-09');
    expect(nyDate(at('2025-11-02T03:59:00Z'))).toBe('2025-11-01');
    expect(nyDate(at('2025-11-03T04:59:00Z'))).toBe('2025-11-02');
  });

  it('WS-195 weekday arithmetic on dates: ISO weekdays, due days on or before and on or after', () => {
    expect(isoWeekday('2025-06-16')).toBe(1);
    expect(isoWeekday('2025-06-20')).toBe(5);
    expect(isoWeekday('2025-06-22')).toBe(7);
    expect(addDays('2025-02-27', 2)).toBe('2025-03-01');
    expect(addDays('2025-03-08', 1)).toBe('2025-03-09');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(dueDayOnOrBefore('2025-06-16', 1)).toBe('2025-06-16');
    expect(dueDayOnOrBefore('2025-06-15', 1)).toBe('2025-06-09');
    expect(dueDayOnOrBefore('2025-06-16', 5)).toBe('2025-06-13');
    expect(dueDayOnOrAfter('2025-06-16', 1)).toBe('2025-06-16');
    expect(dueDayOnOrAfter('2025-06-17', 1)).toBe('2025-06-23');
    expect(dueDayOnOrAfter('2025-06-21', 5)).toBe('2025-06-27');
  });
});

describe('goals under one week old', () => {
  it('WS-198 a goal under one week old is current even on a due day, then due at its one-week mark', () => {
    expect(schedule('2025-06-16T15:00:00Z', 1)).toEqual({ state: 'current', next_checkin_on: '2025-06-23' });
    expect(schedule('2025-06-21T12:00:00Z', 1)).toEqual({ state: 'current', next_checkin_on: '2025-06-23' });
    // Monday 10:59:59.999 in New York: one millisecond short of a week.
    expect(schedule('2025-06-23T14:59:59.999Z', 1)).toEqual({ state: 'current', next_checkin_on: '2025-06-23' });
    expect(schedule('2025-06-23T15:00:00Z', 1)).toEqual({ state: 'due', next_checkin_on: '2025-06-23' });
  });

  it('WS-198 WS-194 a goal created on the due day is first due seven days later, not that day', () => {
    for (const weekday of [1, 2, 3, 4, 5]) {
      const created = at(`2025-06-${String(15 + weekday).padStart(2, '0')}T13:00:00Z`);
      expect(isoWeekday(nyDate(created))).toBe(weekday);
      const r = checkinSchedule({ now: created, weekday, createdAt: created, lastCheckinAt: null });
      expect(r).toEqual({ state: 'current', next_checkin_on: addDays(nyDate(created), 7) });
    }
  });

  it('WS-198 WS-194 the first due day is the first check-in weekday at least seven dates after creation (weekdays 1 to 5)', () => {
    // Created Monday 2025-06-16; read Saturday 2025-06-21, still under a week old.
    const firstDue = { 1: '2025-06-23', 2: '2025-06-24', 3: '2025-06-25', 4: '2025-06-26', 5: '2025-06-27' };
    for (const [weekday, day] of Object.entries(firstDue)) {
      expect(schedule('2025-06-21T12:00:00Z', Number(weekday))).toEqual({ state: 'current', next_checkin_on: day });
    }
    // Created on a Saturday (2025-06-21): with weekday 1 the first due day is 2025-06-30 (9 days later).
    const sat = at('2025-06-21T16:00:00Z');
    expect(
      checkinSchedule({ now: at('2025-06-23T16:00:00Z'), weekday: 1, createdAt: sat, lastCheckinAt: null }),
    ).toEqual({ state: 'current', next_checkin_on: '2025-06-30' });
    expect(
      checkinSchedule({ now: at('2025-06-30T16:00:00Z'), weekday: 1, createdAt: sat, lastCheckinAt: null }),
    ).toEqual({ state: 'due', next_checkin_on: '2025-06-30' });
  });

  it('WS-198 a week is the same New York wall-clock time seven days later, across the spring DST change (167 hours)', () => {
    const created = at('2025-03-03T14:30:00Z'); // Monday 09:30 EST
    const s = (now: string) => checkinSchedule({ now: at(now), weekday: 1, createdAt: created, lastCheckinAt: null });
    expect(s('2025-03-10T13:29:59Z')).toEqual({ state: 'current', next_checkin_on: '2025-03-10' }); // 09:29:59 EDT
    expect(s('2025-03-10T13:30:00Z')).toEqual({ state: 'due', next_checkin_on: '2025-03-10' }); // 09:30 EDT
    expect(underOneWeekOld(created, at('2025-03-10T13:29:59Z'))).toBe(true);
    expect(underOneWeekOld(created, at('2025-03-10T13:30:00Z'))).toBe(false);
  });

  it('WS-198 a week is the same New York wall-clock time seven days later, across the autumn DST change (169 hours)', () => {
    const created = at('2025-10-27T13:30:00Z'); // Monday 09:30 EDT
    const s = (now: string) => checkinSchedule({ now: at(now), weekday: 1, createdAt: created, lastCheckinAt: null });
    expect(s('2025-11-03T14:29:59Z')).toEqual({ state: 'current', next_checkin_on: '2025-11-03' }); // 09:29:59 EST
    expect(s('2025-11-03T14:30:00Z')).toEqual({ state: 'due', next_checkin_on: '2025-11-03' }); // 09:30 EST
    expect(s('2025-11-04T05:00:00Z')).toEqual({ state: 'overdue', next_checkin_on: '2025-11-03' }); // Tue 00:00 EST
  });

  it('WS-198 created late on a Monday before the spring change: current, then due, then overdue, never a past next day while current', () => {
    const created = at('2025-03-04T04:30:00Z'); // Monday 2025-03-03 23:30 EST
    const s = (now: string) => checkinSchedule({ now: at(now), weekday: 1, createdAt: created, lastCheckinAt: null });
    expect(s('2025-03-11T03:00:00Z')).toEqual({ state: 'current', next_checkin_on: '2025-03-10' }); // Mon 23:00 EDT
    expect(s('2025-03-11T03:30:00Z')).toEqual({ state: 'due', next_checkin_on: '2025-03-10' }); // Mon 23:30 EDT
    expect(s('2025-03-11T04:00:00Z')).toEqual({ state: 'overdue', next_checkin_on: '2025-03-10' }); // Tue 00:00 EDT
  });
});

describe('due, overdue and current', () => {
  it('WS-191 WS-193 due on the due day without a check-in, overdue after it, due again on the next due day', () => {
    // Weekday 3 (Wednesday): first due day 2025-06-25.
    expect(schedule('2025-06-25T13:00:00Z', 3)).toEqual({ state: 'due', next_checkin_on: '2025-06-25' });
    expect(schedule('2025-06-26T03:59:59Z', 3)).toEqual({ state: 'due', next_checkin_on: '2025-06-25' }); // Wed 23:59:59
    expect(schedule('2025-06-26T04:00:00Z', 3)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-25' }); // Thu 00:00
    expect(schedule('2025-07-01T20:00:00Z', 3)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-25' });
    expect(schedule('2025-07-02T13:00:00Z', 3)).toEqual({ state: 'due', next_checkin_on: '2025-07-02' });
    expect(schedule('2025-07-03T13:00:00Z', 3)).toEqual({ state: 'overdue', next_checkin_on: '2025-07-02' });
  });

  it('WS-191 WS-194 a check-in in the window D-6..D makes the goal current for D; next_checkin_on is D+7', () => {
    // Weekday 1; due day 2025-06-23; window 2025-06-17..2025-06-23.
    expect(schedule('2025-06-23T15:00:00Z', 1, '2025-06-19T14:00:00Z')).toEqual({
      state: 'current',
      next_checkin_on: '2025-06-30',
    });
    expect(schedule('2025-06-23T15:00:00Z', 1, '2025-06-17T04:00:00Z')).toEqual({
      state: 'current',
      next_checkin_on: '2025-06-30',
    }); // Tue 00:00 New York: the window's first instant
    expect(schedule('2025-06-23T15:00:00Z', 1, '2025-06-17T03:59:59Z')).toEqual({
      state: 'due',
      next_checkin_on: '2025-06-23',
    }); // Mon 23:59:59 New York (already Tuesday in UTC): before the window
    expect(schedule('2025-06-24T15:00:00Z', 1, '2025-06-23T15:30:00Z')).toEqual({
      state: 'current',
      next_checkin_on: '2025-06-30',
    }); // checked in on the due day
  });

  it('WS-191 WS-193 a check-in on the creation day does not count for the first due day', () => {
    expect(schedule('2025-06-23T16:00:00Z', 1, '2025-06-16T16:00:00Z')).toEqual({
      state: 'due',
      next_checkin_on: '2025-06-23',
    });
  });

  it('WS-191 WS-194 a late check-in makes an overdue goal current; it lies in the next window, so it also counts for the next due day', () => {
    expect(schedule('2025-06-24T15:00:00Z', 1)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-23' });
    const late = '2025-06-25T15:00:00Z'; // Wednesday
    expect(schedule('2025-06-25T15:00:01Z', 1, late)).toEqual({ state: 'current', next_checkin_on: '2025-06-30' });
    expect(schedule('2025-06-30T15:00:00Z', 1, late)).toEqual({ state: 'current', next_checkin_on: '2025-07-07' });
    expect(schedule('2025-07-07T15:00:00Z', 1, late)).toEqual({ state: 'due', next_checkin_on: '2025-07-07' });
    expect(schedule('2025-07-08T15:00:00Z', 1, late)).toEqual({ state: 'overdue', next_checkin_on: '2025-07-07' });
  });

  it('WS-191 WS-193 a goal missed for weeks is overdue after each due day and due on it; weekends belong to the last due day', () => {
    const old = at('2025-01-06T15:00:00Z');
    const s = (now: string, weekday: number) =>
      checkinSchedule({ now: at(now), weekday, createdAt: old, lastCheckinAt: null });
    // Thursday 2025-06-19.
    expect(s('2025-06-19T15:00:00Z', 1)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-16' });
    expect(s('2025-06-19T15:00:00Z', 4)).toEqual({ state: 'due', next_checkin_on: '2025-06-19' });
    expect(s('2025-06-19T15:00:00Z', 5)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-13' });
    // Sunday 2025-06-22 with weekday 5: overdue since Friday.
    expect(s('2025-06-22T15:00:00Z', 5)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-20' });
  });

  it('WS-197 the same goal at the same instant reads differently under another checkin_weekday', () => {
    // Wednesday 2025-06-25, no check-in, goal created 2025-06-16.
    expect(schedule('2025-06-25T16:00:00Z', 1)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-23' });
    expect(schedule('2025-06-25T16:00:00Z', 2)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-24' });
    expect(schedule('2025-06-25T16:00:00Z', 3)).toEqual({ state: 'due', next_checkin_on: '2025-06-25' });
    expect(schedule('2025-06-25T16:00:00Z', 4)).toEqual({ state: 'current', next_checkin_on: '2025-06-26' });
    expect(schedule('2025-06-25T16:00:00Z', 5)).toEqual({ state: 'current', next_checkin_on: '2025-06-27' });
  });

  it('WS-191 WS-195 the due day turns to overdue at New York midnight, not UTC midnight (winter and summer)', () => {
    const winter = at('2025-01-06T15:00:00Z'); // Monday
    const s = (now: string) => checkinSchedule({ now: at(now), weekday: 1, createdAt: winter, lastCheckinAt: null });
    expect(s('2025-01-14T04:59:59Z')).toEqual({ state: 'due', next_checkin_on: '2025-01-13' }); // Mon 23:59:59 EST
    expect(s('2025-01-14T05:00:00Z')).toEqual({ state: 'overdue', next_checkin_on: '2025-01-13' });
    expect(schedule('2025-06-24T03:59:59Z', 1)).toEqual({ state: 'due', next_checkin_on: '2025-06-23' }); // 23:59:59 EDT
    expect(schedule('2025-06-24T04:00:00Z', 1)).toEqual({ state: 'overdue', next_checkin_on: '2025-06-23' });
  });

  it('WS-191 always one of current, due or overdue, and next_checkin_on is never before today while current', () => {
    const states = new Set<string>();
    for (let h = 0; h < 24 * 60; h += 5) {
      const now = new Date(CREATED.getTime() + h * 3_600_000);
      for (const weekday of [1, 2, 3, 4, 5]) {
        for (const last of [null, new Date(CREATED.getTime() + 26 * 3_600_000 * weekday)]) {
          const r = checkinSchedule({
            now,
            weekday,
            createdAt: CREATED,
            lastCheckinAt: last && last <= now ? last : null,
          });
          states.add(r.state);
          expect(['current', 'due', 'overdue']).toContain(r.state);
          expect(isoWeekday(r.next_checkin_on)).toBe(weekday);
          if (r.state === 'current') expect(r.next_checkin_on >= nyDate(now)).toBe(true);
          if (r.state === 'due') expect(r.next_checkin_on).toBe(nyDate(now));
          if (r.state === 'overdue') expect(r.next_checkin_on < nyDate(now)).toBe(true);
        }
      }
    }
    expect([...states].sort()).toEqual(['current', 'due', 'overdue']);
  });
});
