import type { AdfNode } from '../../src/clients/tracker.ts';
import { FakeHttp, type Received } from './http.ts';

/**
 * Jira Cloud REST v3 on a local port, in its wire format: GET /rest/api/3/issue/{key} (fields
 * summary, status {name}, description as Atlassian Document Format) and POST
 * /rest/api/3/issue/{key}/comment ({body: ADF} -> 201 with the comment's id). HTTP Basic with the
 * account's email and API token is checked (401 as Jira answers it); an unknown issue is Jira's 404.
 */
export interface FakeIssue {
  summary: string;
  status: string;
  description: AdfNode | null;
}

export interface FakeComment {
  id: string;
  issue: string;
  body: AdfNode;
}

export class FakeJira extends FakeHttp {
  readonly issues = new Map<string, FakeIssue>();
  readonly comments: FakeComment[] = [];

  constructor(
    readonly email: string,
    readonly apiToken: string,
  ) {
    super((r) => this.route(r));
  }

  /** The comments' text, as plain text runs joined. */
  commentTexts(issue?: string): string[] {
    const text = (n: AdfNode): string =>
      (n.text ?? '') + (n.content ?? []).map(text).join(n.type === 'doc' ? '\n' : '');
    return this.comments.filter((c) => issue === undefined || c.issue === issue).map((c) => text(c.body));
  }

  private route(r: Received) {
    const basic = `Basic ${Buffer.from(`${this.email}:${this.apiToken}`).toString('base64')}`;
    if (r.authorization !== basic) {
      return {
        status: 401,
        body: { errorMessages: ['Client must be authenticated to access this resource.'], errors: {} },
      };
    }
    const m = r.path.match(/^\/rest\/api\/3\/issue\/([^/]+)(\/comment)?$/);
    const key = m ? decodeURIComponent(m[1] as string) : '';
    const issue = this.issues.get(key);
    if (!m || !issue) {
      return {
        status: 404,
        body: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} },
      };
    }
    if (!m[2] && r.method === 'GET') {
      return {
        status: 200,
        body: {
          id: String(10_000 + [...this.issues.keys()].indexOf(key)),
          key,
          self: `${this.url}/rest/api/3/issue/${key}`,
          fields: {
            summary: issue.summary,
            status: { name: issue.status, id: '3', statusCategory: { key: 'indeterminate' } },
            description: issue.description,
          },
        },
      };
    }
    if (m[2] && r.method === 'POST') {
      const body = (r.body as { body?: AdfNode } | undefined)?.body;
      if (body?.type !== 'doc') {
        return { status: 400, body: { errorMessages: [], errors: { comment: 'Comment body is not valid!' } } };
      }
      const id = String(20_000 + this.comments.length);
      this.comments.push({ id, issue: key, body });
      return {
        status: 201,
        body: {
          id,
          self: `${this.url}/rest/api/3/issue/${key}/comment/${id}`,
          body,
          created: new Date().toISOString(),
        },
      };
    }
    return { status: 405, body: { errorMessages: ['Method not allowed'], errors: {} } };
  }
}

/** A description in ADF: each string a paragraph. */
export const adf = (...paragraphs: string[]): AdfNode =>
  ({
    type: 'doc',
    version: 1,
    content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
  }) as AdfNode;

export const startFakeJira = (email = 'bot@company.test', apiToken = 'jira-test-token') =>
  new FakeJira(email, apiToken).start();
