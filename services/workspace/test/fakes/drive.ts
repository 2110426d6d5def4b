/**
 * A fake Google Drive API v3 on a local port, in its wire format: changes.getStartPageToken
 * ({kind: drive#startPageToken}), files.list (q `modifiedTime > '<RFC 3339>' and trashed = false`,
 * pageSize, pageToken / nextPageToken; {kind: drive#fileList, incompleteSearch}), changes.list
 * (pageToken, nextPageToken or newStartPageToken; {kind: drive#changeList}), files.get alt=media
 * (a stored file's bytes) and files.export (mimeType; Google Docs editors files only, else 403
 * fileNotExportable). File fields as Drive sends them (version and size as strings). OAuth: the
 * configured bearer token, else 401 in Google's error shape. Tests put files (each put is a
 * change) and read `requests`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFile {
  id: string;
  name: string;
  mimeType: string;
  modifiedTime: Date;
  owner?: string;
  trashed?: boolean;
  /** The file's bytes, or for a Google Docs editors file its exported text. */
  content: string;
}

export interface FakeDrive {
  url: string;
  requests: string[];
  files: Map<string, FakeFile & { version: number }>;
  /** Adds or changes a file: its version goes up and a change is recorded. */
  put(f: FakeFile): void;
  close(): Promise<void>;
}

export async function startFakeDrive(o: { token: string; pageSize?: number }): Promise<FakeDrive> {
  const files = new Map<string, FakeFile & { version: number }>();
  const changes: { fileId: string; time: Date }[] = [];
  const fake: FakeDrive = {
    url: '',
    requests: [],
    files,
    put(f) {
      const version = (files.get(f.id)?.version ?? 0) + 1;
      files.set(f.id, { ...f, version });
      changes.push({ fileId: f.id, time: f.modifiedTime });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const json = (f: FakeFile & { version: number }) => ({
    kind: 'drive#file',
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    modifiedTime: f.modifiedTime.toISOString(),
    version: String(f.version),
    trashed: f.trashed ?? false,
    ...(f.mimeType.startsWith('application/vnd.google-apps.') ? {} : { size: String(Buffer.byteLength(f.content)) }),
    webViewLink: `https://drive.google.com/file/d/${f.id}/view`,
    owners: [{ kind: 'drive#user', emailAddress: f.owner ?? 'me@corp.test', displayName: 'Owner' }],
  });
  const per = o.pageSize ?? 100;
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://drive.test');
    fake.requests.push(`${u.pathname}${u.search}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    const error = (code: number, reason: string, message: string) =>
      send(code, { error: { code, message, errors: [{ message, domain: 'global', reason }] } });
    if (req.headers.authorization !== `Bearer ${o.token}`) {
      return error(401, 'authError', 'Request had invalid authentication credentials.');
    }
    if (req.method !== 'GET') return error(405, 'methodNotAllowed', 'Method not allowed');
    const max = Math.min(Number(u.searchParams.get('pageSize') ?? per), per);
    if (u.pathname === '/drive/v3/changes/startPageToken') {
      return send(200, { kind: 'drive#startPageToken', startPageToken: String(changes.length + 1) });
    }
    if (u.pathname === '/drive/v3/files') {
      const q = u.searchParams.get('q') ?? '';
      const after = q.match(/modifiedTime > '([^']+)'/)?.[1];
      const all = [...files.values()]
        .filter(
          (f) => (after === undefined || f.modifiedTime > new Date(after)) && !(/trashed = false/.test(q) && f.trashed),
        )
        .sort((a, b) => a.modifiedTime.getTime() - b.modifiedTime.getTime());
      const offset = Number(u.searchParams.get('pageToken') ?? 0);
      return send(200, {
        kind: 'drive#fileList',
        incompleteSearch: false,
        files: all.slice(offset, offset + max).map(json),
        ...(offset + max < all.length ? { nextPageToken: String(offset + max) } : {}),
      });
    }
    if (u.pathname === '/drive/v3/changes') {
      const start = Number(u.searchParams.get('pageToken'));
      if (!Number.isInteger(start) || start < 1) return error(400, 'invalid', 'Invalid Value');
      const slice = changes.slice(start - 1, start - 1 + max);
      const next = start + slice.length;
      return send(200, {
        kind: 'drive#changeList',
        changes: slice.map((c) => {
          const f = files.get(c.fileId);
          return {
            kind: 'drive#change',
            changeType: 'file',
            time: c.time.toISOString(),
            removed: !f,
            fileId: c.fileId,
            ...(f ? { file: json(f) } : {}),
          };
        }),
        ...(next <= changes.length ? { nextPageToken: String(next) } : { newStartPageToken: String(next) }),
      });
    }
    const m = u.pathname.match(/^\/drive\/v3\/files\/([^/]+)(\/export)?$/);
    const f = m?.[1] ? files.get(decodeURIComponent(m[1])) : undefined;
    if (!f) return error(404, 'notFound', `File not found: ${m?.[1] ?? ''}.`);
    const google = f.mimeType.startsWith('application/vnd.google-apps.');
    if (m?.[2]) {
      if (!google) return error(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
      res.writeHead(200, { 'content-type': u.searchParams.get('mimeType') ?? 'text/plain' });
      return res.end(f.content);
    }
    if (u.searchParams.get('alt') === 'media') {
      if (google) return error(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded.');
      res.writeHead(200, { 'content-type': f.mimeType });
      return res.end(f.content);
    }
    send(200, json(f));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
