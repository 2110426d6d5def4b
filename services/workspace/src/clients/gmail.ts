import { type Static, Type } from '@sinclair/typebox';
import { type GoogleAnswer, type GoogleOptions, googleJson } from './google.ts';

/**
 * The Gmail API (GMAIL_API_URL, default https://gmail.googleapis.com), as the mailbox importer
 * reads one mailbox (GMAIL_USER, default `me`): users.getProfile (the history cursor to start
 * from), users.messages.list with a query (the first pass's window), users.history.list from a
 * history cursor (every later pass), users.messages.get format=full. Each list is one page; the
 * importer follows nextPageToken so that it can record its cursor page by page.
 */

const Ref = Type.Object({ id: Type.String(), threadId: Type.Optional(Type.String()) }, { additionalProperties: true });

export const GmailProfile = Type.Object(
  { emailAddress: Type.String(), historyId: Type.String() },
  { additionalProperties: true },
);

export const GmailMessageList = Type.Object(
  {
    messages: Type.Optional(Type.Array(Ref)),
    nextPageToken: Type.Optional(Type.String()),
    resultSizeEstimate: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);
export type GmailMessageList = Static<typeof GmailMessageList>;

export const GmailHistoryList = Type.Object(
  {
    history: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String(),
            messagesAdded: Type.Optional(Type.Array(Type.Object({ message: Ref }, { additionalProperties: true }))),
          },
          { additionalProperties: true },
        ),
      ),
    ),
    nextPageToken: Type.Optional(Type.String()),
    historyId: Type.String(),
  },
  { additionalProperties: true },
);
export type GmailHistoryList = Static<typeof GmailHistoryList>;

export interface GmailPart {
  mimeType?: string;
  filename?: string;
  headers?: { name: string; value: string }[];
  body?: { size?: number; data?: string; attachmentId?: string };
  parts?: GmailPart[];
}

const Part = Type.Recursive((This) =>
  Type.Object(
    {
      mimeType: Type.Optional(Type.String()),
      filename: Type.Optional(Type.String()),
      headers: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: Type.String() }))),
      body: Type.Optional(
        Type.Object(
          { size: Type.Optional(Type.Integer()), data: Type.Optional(Type.String()) },
          { additionalProperties: true },
        ),
      ),
      parts: Type.Optional(Type.Array(This)),
    },
    { additionalProperties: true },
  ),
);

export const GmailMessage = Type.Object(
  {
    id: Type.String(),
    threadId: Type.String(),
    labelIds: Type.Optional(Type.Array(Type.String())),
    snippet: Type.Optional(Type.String()),
    historyId: Type.Optional(Type.String()),
    /** Milliseconds since the epoch, as a string. */
    internalDate: Type.String(),
    payload: Part,
  },
  { additionalProperties: true },
);
export type GmailMessage = Static<typeof GmailMessage> & { payload: GmailPart };

export interface Gmail {
  profile(): Promise<GoogleAnswer<Static<typeof GmailProfile>>>;
  listMessages(q: string, pageToken?: string): Promise<GoogleAnswer<GmailMessageList>>;
  /** 404 when the cursor is too old to read from (the importer then starts over from its window). */
  listHistory(startHistoryId: string, pageToken?: string): Promise<GoogleAnswer<GmailHistoryList>>;
  getMessage(id: string): Promise<GoogleAnswer<GmailMessage>>;
}

export interface GmailOptions extends GoogleOptions {
  /** GMAIL_USER: the mailbox, `me` for the token's own. */
  user?: string;
}

export const DEFAULT_GMAIL_URL = 'https://gmail.googleapis.com';
const PAGE = 100;

export class HttpGmail implements Gmail {
  constructor(private readonly o: GmailOptions) {}

  private path(rest: string) {
    return `/gmail/v1/users/${encodeURIComponent(this.o.user ?? 'me')}${rest}`;
  }

  profile() {
    return googleJson(this.o, this.path('/profile'), GmailProfile);
  }

  listMessages(q: string, pageToken?: string) {
    const p = new URLSearchParams({ q, maxResults: String(PAGE), ...(pageToken ? { pageToken } : {}) });
    return googleJson(this.o, this.path(`/messages?${p}`), GmailMessageList);
  }

  listHistory(startHistoryId: string, pageToken?: string) {
    const p = new URLSearchParams({
      startHistoryId,
      historyTypes: 'messageAdded',
      maxResults: String(PAGE),
      ...(pageToken ? { pageToken } : {}),
    });
    return googleJson(this.o, this.path(`/history?${p}`), GmailHistoryList);
  }

  async getMessage(id: string) {
    const r = await googleJson(this.o, this.path(`/messages/${encodeURIComponent(id)}?format=full`), GmailMessage);
    return r as GoogleAnswer<GmailMessage>;
  }
}
