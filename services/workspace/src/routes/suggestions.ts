import type { Principal } from '@platform/kit';
import type { ConversationRecord } from '../domain/conversations.ts';
import { SUGGESTIONS_MAX } from '../domain/conversations.ts';
import type { Suggestions } from '../schemas/conversations.ts';
import { fileableProjects, resolvedProjects } from '../store/conversations.ts';
import { recentUtterances } from '../store/turns.ts';
import type { RouteDeps } from './deps.ts';

/** How many of the latest utterances the intelligence service is shown, and how many projects at most. */
const UTTERANCES_SHOWN = 20;
const CANDIDATES_MAX = 200;

/**
 * The suggestions for a conversation: the intelligence service ranks the projects where the caller
 * may file it; the answer keeps only those (never a project the caller cannot see), drops the ones
 * already settled, best first. Anything but a good answer is degraded: true with an empty list.
 */
export async function suggestionsFor(
  deps: RouteDeps,
  principal: Principal,
  conversation: ConversationRecord,
): Promise<Suggestions> {
  const none = (degraded: boolean): Suggestions => ({ conversation_id: conversation.id, degraded, suggestions: [] });
  if (conversation.project_id !== null) return none(false);
  const db = deps.database.db;
  const candidates = await fileableProjects(db, principal.id, CANDIDATES_MAX);
  if (candidates.length === 0) return none(false);
  if (!deps.intelligence) return none(true);
  const answer = await deps.intelligence.suggestProjects(
    {
      conversation_id: conversation.id,
      title: conversation.title,
      utterances: await recentUtterances(db, conversation.id, UTTERANCES_SHOWN),
      candidates: candidates.map((p) => ({ project_id: p.id, name: p.name, description: p.description })),
      limit: SUGGESTIONS_MAX,
    },
    principal.email ?? principal.id,
  );
  if (!answer.ok) return none(true);
  const names = new Map(candidates.map((p) => [p.id, p.name]));
  const settled = await resolvedProjects(db, conversation.id);
  const seen = new Set<string>();
  const suggestions = answer.data.suggestions
    .filter(
      (s) => names.has(s.project_id) && !settled.has(s.project_id) && !seen.has(s.project_id) && seen.add(s.project_id),
    )
    .sort((a, b) => b.score - a.score)
    .slice(0, SUGGESTIONS_MAX)
    .map((s) => ({
      project_id: s.project_id,
      project_name: names.get(s.project_id) as string,
      score: s.score,
      ...(s.reason === undefined ? {} : { reason: s.reason }),
    }));
  return { conversation_id: conversation.id, degraded: false, suggestions };
}
