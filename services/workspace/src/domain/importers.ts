import { createHash } from 'node:crypto';

/**
 * The connectors' rules as plain functions (spec 2, "Other background workers"; WS-522..WS-534):
 * which repositories a code-host worker reads and whether each feeds the knowledge layer, the
 * window a first pass reads, and what the privacy and block lists drop. The lists themselves are
 * configuration (environment variables), never committed to the repository (WS-531).
 */

/** Between two passes of an importer (and, by default, of a code-host worker): 15 minutes (WS-526). */
export const IMPORT_WAIT_MS = 15 * 60_000;
/** How far back a first pass reads when no window is set (WS-527, WS-533). */
export const DEFAULT_WINDOW_DAYS = 60;
/** A file larger than this is not imported (its metadata is not either). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

export interface AllowedRepository {
  /** owner/name, in lower case. */
  fullName: string;
  /** `:contributes` given: a private repository's evidence may feed the knowledge layer. */
  contributes: boolean;
}

/**
 * A code-host allowlist: `owner/repo` or `owner/repo:contributes`, separated by commas, spaces or
 * new lines. Anything else is refused at start-up, naming the entry.
 */
export function parseRepositoryAllowlist(raw: string | undefined): AllowedRepository[] {
  const out = new Map<string, AllowedRepository>();
  for (const entry of splitList(raw)) {
    const m = entry.match(/^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)(?::(contributes))?$/);
    if (!m?.[1]) throw new Error(`Not a repository (owner/name or owner/name:contributes): ${entry}`);
    const fullName = m[1].toLowerCase();
    out.set(fullName, { fullName, contributes: m[2] === 'contributes' || out.get(fullName)?.contributes === true });
  }
  return [...out.values()];
}

/** A public repository always feeds the knowledge layer; a private one only with its flag (WS-524). */
export const repositoryContributes = (repo: AllowedRepository, isPrivate: boolean) => !isPrivate || repo.contributes;

/** A list from configuration: entries separated by commas or new lines, trimmed, empty ones dropped. */
export function splitList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The instant a first pass reads from: `days` before now. */
export const windowStart = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/**
 * Privacy topics: each a word or phrase, matched case-insensitively as whole words anywhere in the
 * text given (a message's subject and body, a file's name and text). The first one found, if any.
 */
export function privacyTopicFound(topics: string[], ...texts: string[]): string | undefined {
  const hay = texts.join('\n');
  for (const t of topics) {
    const escaped = t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
    if (new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(hay)) return t;
  }
  return undefined;
}

/** The email address inside a header value such as `Ana <ana@x.test>`, in lower case. */
export function emailAddress(header: string): string {
  const m = header.match(/<([^>]+)>/);
  return (m?.[1] ?? header).trim().toLowerCase();
}

/**
 * A mailbox block list: addresses (`ana@x.test`) or whole domains (`@x.test` or `x.test`). Whether
 * any of the addresses (a message's sender) is on it.
 */
export function senderBlocked(list: string[], addresses: string[]): boolean {
  return addresses.some((a) => {
    const domain = a.slice(a.lastIndexOf('@') + 1);
    return list.some((e) => {
      const x = e.toLowerCase();
      return x === a || x === `@${domain}` || (!x.includes('@') && x === domain);
    });
  });
}

/** A drive block list: file ids, exact file names, or owners' addresses or domains. */
export function fileBlocked(list: string[], file: { id: string; name: string; owners: string[] }): boolean {
  const lower = list.map((e) => e.toLowerCase());
  if (list.includes(file.id) || lower.includes(file.name.toLowerCase())) return true;
  return senderBlocked(list, file.owners);
}

/**
 * The reference naming one imported item and version in the documents service (ref_id at most
 * 200 characters: longer ids are hashed).
 */
export function evidenceReference(source: string, externalId: string, version: string) {
  const raw = `${source}:${externalId}@${version}`;
  const ref_id = raw.length <= 200 ? raw : `${source}:sha256:${createHash('sha256').update(raw).digest('hex')}`;
  return { ref_type: 'imported_evidence', ref_id, ref_category: 'evidence' };
}

/** A safe filename for the documents service: letters, digits, dots, dashes and underscores. */
export const safeFilename = (stem: string, ext: string) =>
  `${stem.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 120) || 'item'}.${ext}`;
