import { commandScope, SCHEDULER_PRINCIPAL } from '@platform/kit';
import type { RouteDeps } from '../routes/deps.ts';
import type { DB } from '../store/db.ts';
import {
  meetingsNeedingSummary,
  recordSummaryFailure,
  saveSummary,
  transcriptLines,
} from '../store/meeting-summaries.ts';

/** At most this many summaries a run (WS-495). */
export const SUMMARIES_PER_RUN = 5;
/** No summary is started after this long into the run (WS-496). */
export const SUMMARY_BUDGET_MS = 4 * 60_000;
/** The transcript lines a summary is written from. */
export const SUMMARY_MAX_LINES = 2_000;

export const SUMMARY_SYSTEM =
  'You summarize a meeting transcript for the people who were there: a short paragraph of what was ' +
  'discussed and decided, then a list headed "Next steps:" with one line per commitment (who, what, by when).';

export interface MeetingSummariesResult {
  /** Summaries written. */
  written: number;
  /** Summaries whose writing failed (the broker refused or failed): tried again next run. */
  failed: number;
  /** Meetings still waiting because the run's four minutes were used up. */
  deferred: number;
}

/**
 * POST /internal/jobs/meeting-summaries (WS-494…WS-497), every two minutes on the summarizer
 * release: up to five meetings or recordings with a transcript and no summary, each written
 * through the broker (on behalf of the meeting's author), saved with its evidence.summary_ready
 * event in one transaction. No summary is started once four minutes (the injected clock) have
 * passed since the run began. The caller answers 502 when every summary tried failed.
 */
export async function meetingSummaries(deps: RouteDeps): Promise<MeetingSummariesResult> {
  const db = deps.database.db;
  const started = deps.clock().getTime();
  const result: MeetingSummariesResult = { written: 0, failed: 0, deferred: 0 };
  const model = deps.model;
  const due = await meetingsNeedingSummary(db, SUMMARIES_PER_RUN);
  for (const [i, m] of due.entries()) {
    if (deps.clock().getTime() - started >= SUMMARY_BUDGET_MS) {
      result.deferred = due.length - i;
      break;
    }
    const lines = await transcriptLines(db, m.id, SUMMARY_MAX_LINES);
    let summary: string;
    try {
      if (!model) throw new Error('no model broker configured (BROKER_URL)');
      summary = (
        await model.write({
          onBehalfOf: m.author,
          system: SUMMARY_SYSTEM,
          prompt: `Meeting: ${m.title || '(untitled)'}\n\n${lines.join('\n')}`,
          maxTokens: 800,
        })
      ).trim();
      if (!summary) throw new Error('the model answered no text');
    } catch (e) {
      await recordSummaryFailure(db, m.id, (e as Error).message.slice(0, 500), deps.clock());
      result.failed += 1;
      continue;
    }
    const now = deps.clock();
    await db.transaction().execute(async (trx) => {
      await saveSummary(trx, m.id, summary, now);
      await commandScope<DB>(deps, trx, SCHEDULER_PRINCIPAL, now).emit({
        type: 'evidence.summary_ready',
        data: {
          evidenceId: m.id,
          projectId: m.project_id,
          kind: m.kind,
          source: m.source,
          actor: SCHEDULER_PRINCIPAL.id,
        },
      });
    });
    result.written += 1;
  }
  return result;
}
