/** The tools whose calls post their sources (spec 3, /action-sources). */
export const ACTIONS = ['send_email', 'send_sms', 'send_announcement', 'git_commit', 'open_pull_request'] as const;
export type ActionName = (typeof ACTIONS)[number];
/** evidence and insight come from the sources argument; message marks a UUID found in the message text. */
export const SOURCE_KINDS = ['evidence', 'insight', 'message'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * The rows one action stores (AGT-221..AGT-225): each posted source, then each UUID of the message
 * not already posted (kind message), each id once; read_in_run says whether the agent read the id
 * in the same run, i.e. it is among the run's read ids the harness sends.
 */
export function citedRows(
  sources: readonly { kind: 'evidence' | 'insight'; id: string }[],
  messageIds: readonly string[],
  readIds: readonly string[],
): { kind: SourceKind; id: string; read_in_run: boolean }[] {
  const read = new Set(readIds.map((id) => id.toLowerCase()));
  const rows = new Map<string, { kind: SourceKind; id: string; read_in_run: boolean }>();
  for (const s of sources) {
    const id = s.id.toLowerCase();
    if (!rows.has(id)) rows.set(id, { kind: s.kind, id, read_in_run: read.has(id) });
  }
  for (const id of messageIds) if (!rows.has(id)) rows.set(id, { kind: 'message', id, read_in_run: read.has(id) });
  return [...rows.values()];
}
