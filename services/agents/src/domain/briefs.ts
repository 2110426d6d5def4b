import type { ChatMessage } from '../clients/broker.ts';
import type { BriefSources } from '../clients/workspace.ts';

/** Daily briefs (spec 3, Briefs and coaching; AGT-261..AGT-282): rules in plain functions. */

export const BRIEF_TIMEZONE = 'America/New_York';

export const BRIEF_FEEDBACK_KINDS = [
  'wrong_scope',
  'immaterial',
  'already_resolved',
  'missing',
  'ungrounded',
  'useful',
] as const;
export type BriefFeedbackKind = (typeof BRIEF_FEEDBACK_KINDS)[number];

export const BRIEF_STATUSES = ['published', 'draft', 'superseded'] as const;
export type BriefStatus = (typeof BRIEF_STATUSES)[number];

/** Caps on what the model's reply may hold, and on a pasted or spoken text. */
export const BRIEF_LIMITS = {
  items: 8,
  lineChars: 400,
  headlineChars: 400,
  textChars: 20_000,
  /** The broker speaks at most 4,096 characters of a passage. */
  passageChars: 4_000,
} as const;

const NEW_YORK = new Intl.DateTimeFormat('en-CA', {
  timeZone: BRIEF_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today's calendar day in New York (AGT-268): the default date of the job and of GET /v1/briefs. */
export const newYorkToday = (now: Date): string => NEW_YORK.format(now);

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** One line of the sources the model sees, with the id it must cite. */
interface SourceLine {
  id: string;
  line: string;
}

/** The person's workspace data as numbered facts, each with the id a brief item must cite. */
export function sourceLines(s: BriefSources): SourceLine[] {
  const project = new Map(s.projects.map((p) => [p.id, p.name]));
  const where = (id: string | null) => (id && project.has(id) ? ` (project ${project.get(id)})` : '');
  const out: SourceLine[] = [];
  for (const t of s.tasks) {
    const due = t.target_date ? `, target ${t.target_date}` : '';
    out.push({
      id: `task:${t.id}`,
      line: `Open task assigned to them: ${t.title} [${t.status}${due}]${where(t.project_id)}`,
    });
  }
  for (const u of s.unblock_requests) {
    const due = u.due_on ? `, due ${u.due_on}` : '';
    out.push({
      id: `unblock:${u.id}`,
      line: `Unblock request waiting on them (${u.status}${due}): ${u.needed}. Why now: ${u.why_now}${where(u.project_id)}`,
    });
  }
  for (const h of s.handoffs) {
    const late = h.overdue ? ', overdue' : '';
    out.push({
      id: `handoff:${h.id}`,
      line: `Handoff offered to them (due ${h.due_on}${late}): ${h.title}. Next step: ${h.next_step}${where(h.project_id)}`,
    });
  }
  for (const m of s.meetings) {
    const minutes = m.duration_ms === null ? '' : `, ${Math.round(m.duration_ms / 60_000)} min`;
    out.push({
      id: `meeting:${m.id}`,
      line: `Meeting yesterday: ${m.title || '(untitled)'}${minutes}, ${m.line_count} lines, ${m.decisions_count} decisions${where(m.project_id)}`,
    });
  }
  return out;
}

/**
 * The one model call of a brief: the person's own facts, each with an id, and a JSON-only answer
 * whose every item cites one of those ids (checked by parseBriefReply).
 */
export function briefPrompt(email: string, date: string, lines: readonly SourceLine[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You write a short daily brief for one person from their own workspace data, and nothing else. ' +
        'Answer with JSON only, no prose around it: {"headline": "<one sentence: what matters most today>", ' +
        `"items": [{"source": "<an id from the data>", "text": "<one line, at most ${BRIEF_LIMITS.lineChars} characters>"}]}. ` +
        `At most ${BRIEF_LIMITS.items} items, most important first; every item cites exactly one id given; ` +
        'do not invent facts, people or ids. With no data, say so in the headline and give no items.',
    },
    {
      role: 'user',
      content: JSON.stringify({ person: email, date, data: lines.map((l) => ({ id: l.id, fact: l.line })) }),
    },
  ];
}

export interface BriefReply {
  headline: string;
  items: { source: string; text: string }[];
  /** Items dropped: no such source, empty, too long, or past the cap. */
  dropped: number;
}

/** The JSON object of a reply: the whole content, or the one object inside a code fence. */
function jsonOf(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  try {
    return JSON.parse(fenced ? (fenced[1] ?? '') : trimmed);
  } catch {
    return undefined;
  }
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Checks the model's reply in code: a JSON object with a non-empty headline; items kept only when
 * they cite an id of the data and hold one line within the cap; at most BRIEF_LIMITS.items kept.
 * null when the reply is not a brief at all (the recipient then gets a draft).
 */
export function parseBriefReply(content: string, ids: ReadonlySet<string>): BriefReply | null {
  const v = jsonOf(content);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.headline !== 'string') return null;
  const headline = oneLine(o.headline);
  if (headline.length === 0 || headline.length > BRIEF_LIMITS.headlineChars) return null;
  const raw = o.items === undefined ? [] : o.items;
  if (!Array.isArray(raw)) return null;
  const items: BriefReply['items'] = [];
  let dropped = 0;
  for (const it of raw) {
    const r = typeof it === 'object' && it !== null ? (it as Record<string, unknown>) : {};
    const text = typeof r.text === 'string' ? oneLine(r.text) : '';
    const ok =
      typeof r.source === 'string' &&
      ids.has(r.source) &&
      text.length > 0 &&
      text.length <= BRIEF_LIMITS.lineChars &&
      items.length < BRIEF_LIMITS.items;
    if (ok) items.push({ source: r.source as string, text });
    else dropped += 1;
  }
  return { headline, items, dropped };
}

/** The stored text of a written brief: the headline, then one line per item. */
export const renderBrief = (r: BriefReply): string =>
  [r.headline, ...(r.items.length ? ['', ...r.items.map((i) => `- ${i.text}`)] : [])].join('\n');

/**
 * A draft's text: why it is not a brief, then the facts that were read (when they were), so an
 * admin reading drafts sees what the model call would have had.
 */
export function renderDraft(reason: string, lines: readonly SourceLine[] | null): string {
  const head = `Not written: ${reason}.`;
  if (!lines) return head;
  return [head, '', ...(lines.length ? lines.map((l) => `- ${l.line}`) : ['- (no workspace data)'])].join('\n');
}

/** Whitespace runs as one space, ends trimmed: a passage is found however its lines were wrapped. */
export const normalizePassage = (s: string): string => s.replace(/\s+/g, ' ').trim();
