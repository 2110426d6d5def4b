import { AppError } from '@platform/kit';

/** One issue as the tracker tools read it: the description flattened to text. */
export interface TrackerIssue {
  key: string;
  summary: string;
  status: string;
  description: string;
}

/** The issue tracker as the tracker tools use it: read one issue, comment on it. */
export interface TrackerClient {
  /** The issue, or 404 tracker_issue_not_found; any other failure 502 tracker_unavailable. */
  getIssue(key: string): Promise<TrackerIssue>;
  /** Adds a comment of plain text (lines become paragraphs, URLs links); answers the comment's id. */
  addComment(key: string, text: string): Promise<{ id: string }>;
}

export interface HttpTrackerOptions {
  /** TRACKER_URL: the Jira Cloud site, e.g. https://example.atlassian.net. */
  baseUrl: string;
  /** TRACKER_EMAIL and TRACKER_API_TOKEN: HTTP Basic, as Jira Cloud takes an API token. */
  email: string;
  apiToken: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export const trackerNotConfigured = () =>
  new AppError(
    503,
    'tracker_not_configured',
    'No issue tracker is configured (TRACKER_URL, TRACKER_EMAIL, TRACKER_API_TOKEN)',
  );
export const trackerUnavailable = (why: string) =>
  new AppError(502, 'tracker_unavailable', `The issue tracker did not answer: ${why}`);
export const trackerIssueNotFound = (key: string) =>
  new AppError(404, 'tracker_issue_not_found', `The tracker has no issue ${key}`);

/** An Atlassian Document Format node (Jira Cloud REST v3 rich text). */
export interface AdfNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AdfNode[];
}

const BLOCKS = new Set([
  'paragraph',
  'heading',
  'blockquote',
  'codeBlock',
  'listItem',
  'bulletList',
  'orderedList',
  'panel',
  'rule',
  'table',
  'tableRow',
  'mediaSingle',
]);

/** ADF as plain text: inline nodes run together, each block on its own line. */
export function adfToText(node: AdfNode | null | undefined): string {
  if (!node) return '';
  const walk = (n: AdfNode): string => {
    switch (n.type) {
      case 'text':
        return n.text ?? '';
      case 'hardBreak':
        return '\n';
      case 'mention':
      case 'emoji':
        return String(n.attrs?.text ?? '');
      case 'inlineCard':
      case 'blockCard':
        return String(n.attrs?.url ?? '');
      default: {
        if (n.type === 'tableCell' || n.type === 'tableHeader') {
          return `${(n.content ?? []).map(walk).join(' ').trim()} `;
        }
        // Inline children run together; a block child starts on its own line.
        let out = '';
        for (const c of n.content ?? []) {
          const text = walk(c);
          if (BLOCKS.has(c.type) && out !== '' && !out.endsWith('\n')) out += '\n';
          out += BLOCKS.has(c.type) ? `${text.replace(/\n+$/, '')}\n` : text;
        }
        return out;
      }
    }
  };
  return walk(node)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const URL_RE = /https?:\/\/[^\s<>"]+/g;

/** Plain text as ADF: one paragraph per non-empty line, http(s) URLs as links. */
export function textToAdf(text: string): AdfNode {
  const paragraph = (line: string): AdfNode => {
    const content: AdfNode[] = [];
    let at = 0;
    for (const m of line.matchAll(URL_RE)) {
      const i = m.index ?? 0;
      if (i > at) content.push({ type: 'text', text: line.slice(at, i) });
      content.push({ type: 'text', text: m[0], marks: [{ type: 'link', attrs: { href: m[0] } }] });
      at = i + m[0].length;
    }
    if (at < line.length) content.push({ type: 'text', text: line.slice(at) });
    return { type: 'paragraph', content };
  };
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return { type: 'doc', version: 1, content: lines.map(paragraph) } as AdfNode;
}

interface JiraIssue {
  key?: string;
  fields?: { summary?: string; status?: { name?: string }; description?: AdfNode | null };
}

/**
 * Jira Cloud REST v3: GET /rest/api/3/issue/{key}?fields=summary,status,description and POST
 * /rest/api/3/issue/{key}/comment with an ADF body, HTTP Basic with the account's email and API
 * token (never logged). A 404 is the issue missing; anything else that is not 2xx, a timeout or a
 * body that is not the issue is 502 tracker_unavailable.
 */
export function httpTracker(o: HttpTrackerOptions): TrackerClient {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${o.email}:${o.apiToken}`).toString('base64')}`;
  const send = async (path: string, init: RequestInit = {}) => {
    try {
      return await doFetch(`${base}${path}`, {
        ...init,
        headers: {
          authorization: auth,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (e) {
      throw trackerUnavailable((e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message);
    }
  };
  const json = async <T>(res: Response): Promise<T> => {
    try {
      return (await res.json()) as T;
    } catch {
      throw trackerUnavailable('the reply is not JSON');
    }
  };
  const issuePath = (key: string) => `/rest/api/3/issue/${encodeURIComponent(key)}`;
  return {
    async getIssue(key) {
      const res = await send(`${issuePath(key)}?fields=summary,status,description`);
      if (res.status === 404) throw trackerIssueNotFound(key);
      if (!res.ok) throw trackerUnavailable(`status ${res.status}`);
      const body = await json<JiraIssue>(res);
      if (typeof body.fields?.summary !== 'string') throw trackerUnavailable('the reply is not an issue');
      return {
        key: body.key ?? key,
        summary: body.fields.summary,
        status: body.fields.status?.name ?? '',
        description: adfToText(body.fields.description),
      };
    },
    async addComment(key, text) {
      const res = await send(`${issuePath(key)}/comment`, {
        method: 'POST',
        body: JSON.stringify({ body: textToAdf(text) }),
      });
      if (res.status === 404) throw trackerIssueNotFound(key);
      if (!res.ok) throw trackerUnavailable(`status ${res.status}`);
      const body = await json<{ id?: unknown }>(res);
      if (typeof body.id !== 'string' && typeof body.id !== 'number')
        throw trackerUnavailable('the reply has no comment id');
      return { id: String(body.id) };
    },
  };
}
