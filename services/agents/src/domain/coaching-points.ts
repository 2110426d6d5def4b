import type { ChatMessage } from '../clients/broker.ts';
import { type CoachMeeting, type CoachPerson, isOwnLine, normalName } from './coaching-meetings.ts';

/** At most this many communication points (AGT-303). */
export const COMMUNICATION_POINTS_MAX = 3;
/** The person's lines sent to the model at most (the latest kept); a longer week is cut. */
export const COMMUNICATION_LINES_MAX = 400;
const FIELD_MAX = 600;

/** One of the person's own lines, as the model sees it: a label (L1, L2, ...) and the text only. */
export interface OwnLine {
  label: string;
  meeting_id: string;
  seq: number;
  text: string;
}

export interface CommunicationPoint {
  id: string;
  meeting_id: string;
  seq: number;
  quote: string;
  observation: string;
  suggestion: string;
}

export type AboutYouKind = 'waiting_on_you' | 'credit' | 'concern' | 'misunderstanding';

export interface AboutYouPoint {
  id: string;
  kind: AboutYouKind;
  meeting_id: string;
  seq: number;
  speaker: string;
  quote: string;
  suggestion: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordIn = (text: string, word: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(word)}($|[^\\p{L}\\p{N}])`, 'iu').test(text);

/** Labels such as "Speaker 2" or "Unknown" are no one's name. */
const isLabel = (speaker: string) => /^(speaker|participant|guest|unknown)\b/i.test(speaker.trim());

/** The person's own name words: their full names and each of their parts. */
function ownWords(person: CoachPerson): Set<string> {
  const words = new Set<string>();
  for (const n of person.names) {
    const full = normalName(n);
    if (full) words.add(full);
    for (const w of full.split(' ')) if (w.length >= 2) words.add(w);
  }
  return words;
}

/**
 * Everyone else's names the text could carry: each other speaker of the meetings, as a full name
 * and by each part of it (first names are how people are named in a meeting), less any word the
 * person's own name shares. Speaker labels are left out.
 */
export function otherNames(person: CoachPerson, meetings: readonly CoachMeeting[]): string[] {
  const own = ownWords(person);
  const names = new Set<string>();
  for (const m of meetings) {
    for (const l of m.lines) {
      if (isOwnLine(person, m, l.speaker) || isLabel(l.speaker)) continue;
      const full = normalName(l.speaker);
      if (!full || own.has(full)) continue;
      names.add(full);
      for (const w of full.split(' ')) if (w.length >= 2 && !own.has(w)) names.add(w);
    }
  }
  return [...names];
}

/** Whether any of `names` appears in `text` as whole words. */
export const namesAny = (text: string, names: readonly string[]): boolean =>
  names.some((n) => wordIn(normalName(text), n));

/** Whether a line names the person: one of their full names or its first word, or their email's local part. */
export function namesPerson(person: CoachPerson, text: string): boolean {
  const t = normalName(text);
  const local = normalName(person.email.split('@')[0] ?? '');
  for (const n of person.names) {
    const full = normalName(n);
    if (full && wordIn(t, full)) return true;
    const first = full.split(' ')[0];
    if (first && first.length >= 2 && wordIn(t, first)) return true;
  }
  return local.length > 0 && wordIn(t, local);
}

/** The person's own lines of the week's meetings, labelled in order (the latest COMMUNICATION_LINES_MAX). */
export function ownLines(person: CoachPerson, meetings: readonly CoachMeeting[]): OwnLine[] {
  const lines: Omit<OwnLine, 'label'>[] = [];
  for (const m of meetings) {
    for (const l of m.lines) {
      if (isOwnLine(person, m, l.speaker)) lines.push({ meeting_id: m.id, seq: l.seq, text: l.text });
    }
  }
  return lines.slice(-COMMUNICATION_LINES_MAX).map((l, i) => ({ label: `L${i + 1}`, ...l }));
}

/**
 * The one model call of the communication part (AGT-302): instructions and the person's own
 * lines, nothing else (no titles, no speakers, no one else's words). The reply is asked for as JSON.
 */
export function communicationPrompt(lines: readonly OwnLine[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You coach one person on how they communicate in meetings. You are given only their own lines from last ' +
        'week, each labelled [L1], [L2], ... Reply with JSON only, no prose: {"points": [{"line": "L<n>", "quote": ' +
        '"words copied exactly from that line", "observation": "what the line shows about how they communicate", ' +
        '"suggestion": "one concrete thing to try"}]}. At most 3 points. Quote their words exactly as written. ' +
        'Name nobody: no person, colleague or team member, in any field.',
    },
    { role: 'user', content: lines.map((l) => `[${l.label}] ${l.text}`).join('\n') },
  ];
}

/** A model reply's JSON object: the reply itself, or the first {...} in it (fenced or with prose around it). */
export function replyJson(content: string): unknown {
  const attempts = [content.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  if (fenced?.[1]) attempts.push(fenced[1].trim());
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first >= 0 && last > first) attempts.push(content.slice(first, last + 1));
  for (const a of attempts) {
    try {
      return JSON.parse(a);
    } catch {
      // the next reading
    }
  }
  return null;
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim().length > 0 && v.length <= FIELD_MAX ? v.trim() : null;

/**
 * The communication points the code keeps (AGT-303..AGT-305): each names one of the labels sent,
 * quotes that line's own text exactly (a part of it, not empty), has an observation and a
 * suggestion, and names no one else anywhere; the first three that pass are kept, the rest dropped.
 */
export function checkCommunication(
  reply: unknown,
  lines: readonly OwnLine[],
  others: readonly string[],
): { points: CommunicationPoint[]; dropped: number } {
  const raw = (reply as { points?: unknown } | null)?.points;
  const items = Array.isArray(raw) ? raw : [];
  const byLabel = new Map(lines.map((l) => [l.label.toLowerCase(), l]));
  const points: CommunicationPoint[] = [];
  for (const item of items) {
    if (points.length >= COMMUNICATION_POINTS_MAX) break;
    const p = (item ?? {}) as Record<string, unknown>;
    const label =
      typeof p.line === 'string'
        ? p.line
            .trim()
            .replace(/^\[|\]$/g, '')
            .toLowerCase()
        : '';
    const line = byLabel.get(label);
    const quote = typeof p.quote === 'string' ? p.quote.trim() : '';
    const observation = text(p.observation);
    const suggestion = text(p.suggestion);
    if (!line || !quote || !line.text.includes(quote) || !observation || !suggestion) continue;
    if (namesAny(`${quote}\n${observation}\n${suggestion}`, others)) continue;
    points.push({
      id: `comm-${points.length + 1}`,
      meeting_id: line.meeting_id,
      seq: line.seq,
      quote,
      observation,
      suggestion,
    });
  }
  return { points, dropped: items.length - points.length };
}

/**
 * How a colleague's line about the person is read (docs/decisions.md, coaching): the first kind
 * whose words it carries, in this order. Lines naming the person but matching none are no point.
 */
const KINDS: readonly { kind: AboutYouKind; pattern: RegExp; suggestion: string }[] = [
  {
    kind: 'waiting_on_you',
    pattern:
      /\b(waiting (on|for)|blocked (on|by)|still need|need(s|ed)? .{0,40}\bfrom\b|depend(s|ing)? on|hasn'?t (sent|replied|answered|shared)|any update)\b/i,
    suggestion: 'Someone is waiting on you: answer with a date, or say who takes it over.',
  },
  {
    kind: 'concern',
    pattern: /\b(worr(y|ied|ies)|concern(s|ed)?|not sure (about|if)|risk(y|s)?|uneasy|problem with|issue with)\b/i,
    suggestion: 'A concern was raised about your work: ask what would settle it and agree a next step.',
  },
  {
    kind: 'misunderstanding',
    pattern:
      /\b(misunder\w*|confus\w*|not what .{0,30}meant|thought (you|they|he|she) (said|meant)|unclear|mix(ed)?[- ]up|on the same page)\b/i,
    suggestion: 'Something you said was read differently: restate it in one sentence and check it landed.',
  },
  {
    kind: 'credit',
    pattern: /\b(thanks?|thank you|kudos|great (job|work)|well done|nice work|shout[- ]?out|credit to|props)\b/i,
    suggestion: 'Your work was credited: note what made it land so you can repeat it.',
  },
];

/**
 * about_you (AGT-306..AGT-309): lines by others that name the person, at most one point per kind
 * (the first line of that kind), quoted whole with their speaker; the suggestion is the kind's own
 * and names nobody (checked all the same: one that did would be dropped).
 */
export function aboutYou(
  person: CoachPerson,
  meetings: readonly CoachMeeting[],
  everyone: readonly string[],
): AboutYouPoint[] {
  const points: AboutYouPoint[] = [];
  const seen = new Set<AboutYouKind>();
  for (const m of meetings) {
    for (const l of m.lines) {
      if (isOwnLine(person, m, l.speaker) || !namesPerson(person, l.text)) continue;
      const k = KINDS.find((c) => !seen.has(c.kind) && c.pattern.test(l.text));
      if (!k || namesAny(k.suggestion, everyone)) continue;
      // A kind already taken does not let a later, weaker match of this line through.
      if (KINDS.find((c) => c.pattern.test(l.text))?.kind !== k.kind) continue;
      seen.add(k.kind);
      points.push({
        id: `about-${points.length + 1}`,
        kind: k.kind,
        meeting_id: m.id,
        seq: l.seq,
        speaker: l.speaker,
        quote: l.text,
        suggestion: k.suggestion,
      });
    }
  }
  return points;
}
