import { AppError } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Pool } from 'undici';

/**
 * The workspace API read on one person's behalf (issue 20: briefs and coaching). Every call sends
 * the shared service token with X-Platform-On-Behalf-Of naming the person by email, which
 * workspace's kit authenticator turns into that person (`via: 'service_token'`): the person's own
 * memberships decide what is read, platform-admin reach is switched off with X-Platform-As-Member,
 * and nothing is ever written. Configured by AGENTS_WORKSPACE_URL and SERVICE_TOKEN (never logged).
 *
 * Failures: no answer, a timeout, a non-2xx status or an answer not of the documented shape throw
 * 502 workspace_unavailable; callers with no client configured answer 503 workspace_not_configured.
 */

/** The person read for: their email (the on-behalf-of name) and their FID (tasks name assignees by FID). */
export interface WorkspacePerson {
  email: string;
  id: string;
}

/** YYYY-MM-DD calendar days in America/New_York, both included. */
export interface DayRange {
  from: string;
  to: string;
}

export interface WsProject {
  id: string;
  name: string;
}

export interface WsTask {
  id: string;
  project_id: string;
  title: string;
  /** The status's name as workspace shows it. */
  status: string;
  target_date: string | null;
}

export interface WsUnblockRequest {
  id: string;
  project_id: string;
  needed: string;
  why_now: string;
  due_on: string | null;
  status: string;
}

export interface WsHandoff {
  id: string;
  project_id: string;
  title: string;
  next_step: string;
  due_on: string;
  overdue: boolean;
}

/** One meeting of the person, from workspace's GET /v1/me/meetings. */
export interface WsMeeting {
  id: string;
  title: string;
  /** meeting, thread or recording. */
  kind: string;
  source: string;
  project_id: string | null;
  /** When the meeting was opened (ISO timestamp). */
  started_at: string;
  /** When a live record ended; null otherwise. */
  ended_at: string | null;
  /** Counted by workspace: ended_at - started_at when ended, else the last line's start_ms; null when unknown. */
  duration_ms: number | null;
  participants: string[];
  /** The speaker names on this meeting's lines that are the person (assigned to their FID, or their email). */
  person_speakers: string[];
  line_count: number;
  /** Decisions proposed on the meeting's project from its start to the end of its New York day (0 when unfiled). */
  decisions_count: number;
}

export interface WsUtterance {
  seq: number;
  speaker: string;
  text: string;
}

export interface WsMeetingWithLines extends WsMeeting {
  utterances: WsUtterance[];
}

/** What the daily brief reads about one person (docs/decisions.md, "Briefs: sources"). */
export interface BriefSources {
  projects: WsProject[];
  /** Open tasks assigned to the person, across the projects read. */
  tasks: WsTask[];
  /** The person's unblock queue: requests to answer and answers to confirm. */
  unblock_requests: WsUnblockRequest[];
  /** Handoffs offered to the person, waiting on them. */
  handoffs: WsHandoff[];
  /** The person's meetings of the day before the brief's date. */
  meetings: WsMeeting[];
}

export interface WorkspaceReader {
  /** Active projects the person belongs to (GET /v1/projects, memberships only), at most `limit`. */
  projects(person: WorkspacePerson, limit: number): Promise<WsProject[]>;
  /** Open tasks assigned to the person on one project (GET /v1/projects/{id}/items?assignee=&state=open). */
  openTasks(person: WorkspacePerson, projectId: string, limit: number): Promise<WsTask[]>;
  /** GET /v1/me/unblock-requests. */
  unblockQueue(person: WorkspacePerson, limit: number): Promise<WsUnblockRequest[]>;
  /** GET /v1/me/handoffs (offered, waiting on the person). */
  handoffsOffered(person: WorkspacePerson, limit: number): Promise<WsHandoff[]>;
  /** The person's meetings whose start falls on a New York day of the range (GET /v1/me/meetings?from&to). */
  meetings(person: WorkspacePerson, range: DayRange): Promise<WsMeeting[]>;
  /** Every line of one meeting in seq order (GET /v1/meetings/{id}/utterances, paged through). */
  utterances(person: WorkspacePerson, meetingId: string): Promise<WsUtterance[]>;
  /** meetings() with each meeting's lines (coaching). */
  meetingsWithUtterances(person: WorkspacePerson, range: DayRange): Promise<WsMeetingWithLines[]>;
  /** The brief's sources for `date` (YYYY-MM-DD): meetings are those of the day before. */
  briefSources(person: WorkspacePerson, date: string): Promise<BriefSources>;
}

export const workspaceUnavailable = (why: string) =>
  new AppError(502, 'workspace_unavailable', `The workspace service did not answer the read: ${why}`);

export const workspaceNotConfigured = () =>
  new AppError(503, 'workspace_not_configured', 'No workspace service is configured (AGENTS_WORKSPACE_URL)');

export interface HttpWorkspaceOptions {
  /** AGENTS_WORKSPACE_URL. */
  baseUrl: string;
  /** SERVICE_TOKEN: workspace takes the person named in X-Platform-On-Behalf-Of on its word. */
  serviceToken: string | undefined;
  /** AGENTS_UPSTREAM_TIMEOUT_MS. */
  timeoutMs: number;
}

/** How many projects a brief reads, and rows per source: a brief is a page, not an export. */
export const BRIEF_LIMITS = { projects: 10, tasksPerProject: 20, unblock: 20, handoffs: 20 } as const;

const UTTERANCE_PAGE = 200;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const ProjectRow = Type.Object({ id: Type.String(), name: Type.String() });
const TaskRow = Type.Object({
  id: Type.String(),
  title: Type.String(),
  target_date: Nullable(Type.String()),
  status: Type.Object({ name: Type.String() }),
});
const UnblockRow = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  needed: Type.String(),
  why_now: Type.String(),
  due_on: Nullable(Type.String()),
  status: Type.String(),
});
const HandoffRow = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  title: Type.String(),
  next_step: Type.String(),
  due_on: Type.String(),
  overdue: Type.Boolean(),
});
const MeetingRow = Type.Object({
  id: Type.String(),
  title: Type.String(),
  kind: Type.String(),
  source: Type.String(),
  project_id: Nullable(Type.String()),
  started_at: Type.String(),
  ended_at: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer({ minimum: 0 })),
  participants: Type.Array(Type.String()),
  person_speakers: Type.Array(Type.String()),
  line_count: Type.Integer({ minimum: 0 }),
  decisions_count: Type.Integer({ minimum: 0 }),
});
const UtteranceRow = Type.Object({ seq: Type.Integer(), speaker: Type.String(), text: Type.String() });

/** The day before a YYYY-MM-DD date. */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Checks every row against its schema (502 on the first that breaks it) and keeps the fields named. */
function rows<S extends TSchema, T>(data: unknown, schema: S, pick: (r: Static<S>) => T, what: string): T[] {
  if (!Array.isArray(data)) throw workspaceUnavailable(`${what}: the answer has no list`);
  return data.map((r) => {
    if (!Value.Check(schema, r)) throw workspaceUnavailable(`${what}: a row is not of the documented shape`);
    return pick(r);
  });
}

const pickMeeting = (r: Static<typeof MeetingRow>): WsMeeting => ({
  id: r.id,
  title: r.title,
  kind: r.kind,
  source: r.source,
  project_id: r.project_id,
  started_at: r.started_at,
  ended_at: r.ended_at,
  duration_ms: r.duration_ms,
  participants: r.participants,
  person_speakers: r.person_speakers,
  line_count: r.line_count,
  decisions_count: r.decisions_count,
});

/** The workspace reader over HTTP (the envelope's payload.data; pagination from payload.meta). */
export function httpWorkspace(o: HttpWorkspaceOptions): WorkspaceReader {
  const base = o.baseUrl.replace(/\/+$/, '');
  // One keep-alive pool for every read: a morning's briefs make thousands of small GETs, and
  // undici's request spares the per-call cost of fetch's web streams.
  const pool = new Pool(new URL(base).origin, { connections: 32, keepAliveTimeout: 30_000 });
  const prefix = new URL(base).pathname.replace(/\/+$/, '');

  async function get(person: WorkspacePerson, path: string, query: Record<string, string | number> = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    let status: number;
    let text: string;
    try {
      const res = await pool.request({
        method: 'GET',
        path: `${prefix}${path}${qs ? `?${qs}` : ''}`,
        headers: {
          accept: 'application/json',
          ...(o.serviceToken ? { 'x-platform-service-token': o.serviceToken } : {}),
          'x-platform-on-behalf-of': person.email,
          // A platform admin's brief reads their own memberships, not every project.
          'x-platform-as-member': 'true',
        },
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (e) {
      const name = (e as Error).name;
      throw workspaceUnavailable(/Timeout/.test(name) ? 'timed out' : (e as Error).message);
    }
    if (status < 200 || status >= 300) {
      throw workspaceUnavailable(`${path.split('/').slice(0, 3).join('/')}: status ${status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw workspaceUnavailable('the answer is not JSON');
    }
    const payload = isObj(body) && isObj(body.payload) ? body.payload : undefined;
    if (!payload || !('data' in payload)) throw workspaceUnavailable('the answer is not an envelope');
    return { data: payload.data, meta: isObj(payload.meta) ? payload.meta : undefined };
  }

  const reader: WorkspaceReader = {
    async projects(person, limit) {
      const { data } = await get(person, '/v1/projects', { status: 'active', 'pagination[pageSize]': limit });
      return rows(data, ProjectRow, (r) => ({ id: r.id, name: r.name }), 'projects');
    },

    async openTasks(person, projectId, limit) {
      const { data } = await get(person, `/v1/projects/${encodeURIComponent(projectId)}/items`, {
        assignee: person.id,
        state: 'open',
        'pagination[pageSize]': limit,
      });
      return rows(
        data,
        TaskRow,
        (r) => ({ id: r.id, project_id: projectId, title: r.title, status: r.status.name, target_date: r.target_date }),
        'tasks',
      );
    },

    async unblockQueue(person, limit) {
      const { data } = await get(person, '/v1/me/unblock-requests', { 'pagination[pageSize]': limit });
      return rows(
        data,
        UnblockRow,
        (r) => ({
          id: r.id,
          project_id: r.project_id,
          needed: r.needed,
          why_now: r.why_now,
          due_on: r.due_on,
          status: r.status,
        }),
        'unblock requests',
      );
    },

    async handoffsOffered(person, limit) {
      const { data } = await get(person, '/v1/me/handoffs', { 'pagination[pageSize]': limit });
      return rows(
        data,
        HandoffRow,
        (r) => ({
          id: r.id,
          project_id: r.project_id,
          title: r.title,
          next_step: r.next_step,
          due_on: r.due_on,
          overdue: r.overdue,
        }),
        'handoffs',
      );
    },

    async meetings(person, range) {
      const { data } = await get(person, '/v1/me/meetings', { from: range.from, to: range.to });
      return rows(data, MeetingRow, pickMeeting, 'meetings');
    },

    async utterances(person, meetingId) {
      const lines: WsUtterance[] = [];
      let after: string | undefined;
      for (;;) {
        const { data, meta } = await get(person, `/v1/meetings/${encodeURIComponent(meetingId)}/utterances`, {
          limit: UTTERANCE_PAGE,
          ...(after ? { after } : {}),
        });
        lines.push(
          ...rows(data, UtteranceRow, (r) => ({ seq: r.seq, speaker: r.speaker, text: r.text }), 'utterances'),
        );
        const pagination = meta && isObj(meta.pagination) ? meta.pagination : undefined;
        const next = pagination?.nextCursor;
        if (typeof next !== 'string') return lines;
        after = next;
      }
    },

    async meetingsWithUtterances(person, range) {
      const meetings = await reader.meetings(person, range);
      const out: WsMeetingWithLines[] = [];
      // One meeting at a time: a person's week is a handful of meetings, and workspace is shared.
      for (const m of meetings) out.push({ ...m, utterances: await reader.utterances(person, m.id) });
      return out;
    },

    async briefSources(person, date) {
      const yesterday = dayBefore(date);
      const [projects, unblock_requests, handoffs, meetings] = await Promise.all([
        reader.projects(person, BRIEF_LIMITS.projects),
        reader.unblockQueue(person, BRIEF_LIMITS.unblock),
        reader.handoffsOffered(person, BRIEF_LIMITS.handoffs),
        reader.meetings(person, { from: yesterday, to: yesterday }),
      ]);
      const perProject = await Promise.all(
        projects.map((p) => reader.openTasks(person, p.id, BRIEF_LIMITS.tasksPerProject)),
      );
      return { projects, tasks: perProject.flat(), unblock_requests, handoffs, meetings };
    },
  };
  return reader;
}
