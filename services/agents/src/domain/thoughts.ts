/** What the thoughts block is assembled from (GET /v1/agents/{id}/thoughts). */
export interface ThoughtsParts {
  core: readonly { content: string }[];
  recent: readonly { content: string }[];
  checkpoint: { scan_id: string | null; position: number | null; version: number };
  runs: readonly { started_at: string; reason: string; outcome: string; summary: string | null }[];
}

const bullets = (lines: readonly string[]) => (lines.length ? lines.map((l) => `- ${l}`).join('\n') : '- (none)');

/**
 * The thoughts block for the agent's next cycle, as text: pinned memories first (they always go
 * in), then recently recalled ones, where the research scan stands, and what the last runs did.
 */
export function thoughtsBlock(p: ThoughtsParts): string {
  const checkpoint =
    p.checkpoint.version === 0
      ? '- (no research checkpoint yet)'
      : `- scan ${p.checkpoint.scan_id} at position ${p.checkpoint.position} (version ${p.checkpoint.version})`;
  return [
    '## Core memories',
    bullets(p.core.map((m) => m.content)),
    '',
    '## Recent memories',
    bullets(p.recent.map((m) => m.content)),
    '',
    '## Research checkpoint',
    checkpoint,
    '',
    '## Recent runs',
    bullets(p.runs.map((r) => `${r.started_at} ${r.reason}, ${r.outcome}${r.summary ? `: ${r.summary}` : ''}`)),
  ].join('\n');
}
