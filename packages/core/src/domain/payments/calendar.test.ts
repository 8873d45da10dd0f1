import { describe, expect, it } from 'vitest';
import { sessionFor, sessionsBetween, sessionsOfDay } from './calendar.ts';

const iso = (date: Date) => date.toISOString();

describe('Elixir sessions', () => {
  it('three sessions on a Polish business day, at 09:30, 13:30, 16:00 Warsaw (CET in winter)', () => {
    const sessions = sessionsOfDay('elixir', '2026-12-01');
    expect(sessions.map((s) => iso(s.sessionAt))).toEqual([
      '2026-12-01T08:30:00.000Z',
      '2026-12-01T12:30:00.000Z',
      '2026-12-01T15:00:00.000Z',
    ]);
    expect(sessions.map((s) => iso(s.cutoffAt))).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
      '2026-12-01T14:30:00.000Z',
    ]);
    expect(iso(sessions[0]?.settlesAt as Date)).toBe('2026-12-01T09:30:00.000Z');
  });

  it('Warsaw summer time moves the sessions an hour earlier in UTC', () => {
    expect(iso(sessionsOfDay('elixir', '2027-06-01')[0]?.sessionAt as Date)).toBe('2027-06-01T07:30:00.000Z');
  });

  it('a payment at the cut-off joins the session; a minute later, the next one', () => {
    expect(iso(sessionFor('elixir', new Date('2026-12-01T08:00:00.000Z')).sessionAt)).toBe('2026-12-01T08:30:00.000Z');
    expect(iso(sessionFor('elixir', new Date('2026-12-01T08:00:00.001Z')).sessionAt)).toBe('2026-12-01T12:30:00.000Z');
  });

  it('Friday after the last cut-off → Monday first session', () => {
    // 2026-12-04 is a Friday; 15:31 Warsaw is after the 15:30 cut-off.
    const session = sessionFor('elixir', new Date('2026-12-04T14:31:00.000Z'));
    expect(session.day).toBe('2026-12-07');
    expect(iso(session.sessionAt)).toBe('2026-12-07T08:30:00.000Z');
  });

  it('11 November (Independence Day) has no session: the 10th after cut-off goes to the 12th', () => {
    expect(sessionsOfDay('elixir', '2026-11-11')).toEqual([]);
    expect(sessionFor('elixir', new Date('2026-11-10T15:00:00.000Z')).day).toBe('2026-11-12');
  });

  it('3 May 2027 (a Monday, Constitution Day) has no session: Friday 30 April after cut-off → 4 May', () => {
    expect(sessionsOfDay('elixir', '2027-05-03')).toEqual([]);
    expect(sessionFor('elixir', new Date('2027-04-30T14:00:00.000Z')).day).toBe('2027-05-04');
  });

  it('Easter Monday 2027 (29 March) has no session: Good Friday is a Polish business day', () => {
    expect(sessionsOfDay('elixir', '2027-03-29')).toEqual([]);
    expect(sessionsOfDay('elixir', '2027-03-26')).toHaveLength(3);
    expect(sessionFor('elixir', new Date('2027-03-26T15:00:00.000Z')).day).toBe('2027-03-30');
  });

  it('a requested execution day: the first session on that day or after', () => {
    expect(sessionFor('elixir', new Date('2026-12-01T08:00:00.000Z'), '2026-12-05').day).toBe('2026-12-07');
    // A requested day in the past counts as today.
    expect(sessionFor('elixir', new Date('2026-12-01T08:00:00.000Z'), '2026-11-01').day).toBe('2026-12-01');
  });
});

describe('SEPA on the TARGET calendar', () => {
  it('cut-off 15:00 on a TARGET day, settled at 09:00 on the next TARGET day', () => {
    const [session] = sessionsOfDay('sepa', '2026-12-01');
    expect(iso(session?.cutoffAt as Date)).toBe('2026-12-01T14:00:00.000Z');
    expect(iso(session?.settlesAt as Date)).toBe('2026-12-02T08:00:00.000Z');
  });

  it('Good Friday and Easter Monday are TARGET holidays: Thursday after cut-off clears Tuesday', () => {
    // 2027-03-25 is Maundy Thursday; 26 (Good Friday) and 29 (Easter Monday) are TARGET closing days.
    expect(sessionsOfDay('sepa', '2027-03-26')).toEqual([]);
    const after = sessionFor('sepa', new Date('2027-03-25T15:00:00.000Z'));
    expect(after.day).toBe('2027-03-30');
    // Before the cut-off on Thursday it clears that day and settles on the next TARGET day, Tuesday.
    const before = sessionFor('sepa', new Date('2027-03-25T10:00:00.000Z'));
    expect(before.day).toBe('2027-03-25');
    expect(iso(before.settlesAt)).toBe('2027-03-30T07:00:00.000Z');
  });

  it('1 May is a TARGET holiday, 3 May is not (a Polish one only)', () => {
    expect(sessionsOfDay('sepa', '2026-05-01')).toEqual([]);
    expect(sessionsOfDay('sepa', '2027-05-03')).toHaveLength(1);
  });
});

describe('sessionsBetween', () => {
  it('lists a week of Elixir sessions in order, skipping the weekend', () => {
    const sessions = sessionsBetween('elixir', '2026-12-04', '2026-12-07');
    expect(sessions.map((s) => s.day)).toEqual([
      '2026-12-04',
      '2026-12-04',
      '2026-12-04',
      '2026-12-07',
      '2026-12-07',
      '2026-12-07',
    ]);
  });
});
