/** Log kinds (spec 3, Log row; AGT-056). */
export const LOG_KINDS = ['started', 'heartbeat', 'wake', 'error', 'skill', 'info', 'warn'] as const;
export type LogKind = (typeof LOG_KINDS)[number];

/**
 * What a log line stores as its message. A skill line names the tool and never its result
 * (AGT-057): the `tool` field when sent, else the message's first word (up to a space, colon,
 * parenthesis or equals sign), so `search_documents: 14 hits` keeps `search_documents`.
 */
export function storedMessage(kind: LogKind, message: string, tool?: string): string {
  if (kind !== 'skill') return message;
  if (tool) return tool;
  const first = message.trim().split(/[\s:(=]/, 1)[0] ?? '';
  return first.slice(0, 100) || 'unknown';
}
