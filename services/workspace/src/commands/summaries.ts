import type { ModelClient } from '../clients/broker.ts';
import { digestPrompt } from '../domain/digest.ts';
import { packPrompt } from '../domain/pack.ts';
import type { Db } from '../store/db.ts';
import { pendingLines, settleLine } from '../store/digests.ts';
import { packContent, projectPositions, savePack, stalePackProjects } from '../store/packs.ts';
import { findProject } from '../store/projects.ts';

const DIGEST_SYSTEM =
  'You write one-sentence activity digests for members of a project workspace. Be concrete and brief; no greeting.';
const PACK_SYSTEM =
  'You summarise a project for someone starting work on it: what it is for, where its goals stand, what was decided. Three sentences at most.';

/** How often the process looks for digests to write a line for and packs to build. */
export const SUMMARY_INTERVAL_MS = 30_000;

export interface SummaryWriterOptions {
  /** The model broker; absent: packs are built without a summary and digests get no line. */
  model?: ModelClient;
  clock?: () => Date;
  /** How many digest lines and packs one run writes at most (each). */
  batch?: number;
  onError?: (e: Error) => void;
}

/**
 * Writes the model-written text of the workspace off the read paths (spec 2: "no model call per page
 * view"): the line of each digest that was read and has something to say, and the context pack of
 * each project whose pack is missing or stale (built again from the tables, with a summary when a
 * model is configured). Level-triggered: each run looks at what is pending, so a crash or a failed
 * call loses nothing but time; a failed line is not retried for the same counts (the digest reads
 * degraded), a failed summary leaves the pack built without one (degraded) until the project
 * changes again. Runs every SUMMARY_INTERVAL_MS in the process (start.ts); tests call run().
 */
export class SummaryWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly clock: () => Date;
  constructor(
    private readonly db: Db,
    private readonly o: SummaryWriterOptions = {},
  ) {
    this.clock = o.clock ?? (() => new Date());
  }

  /** One pass: pending digest lines, then stale packs. */
  async run(): Promise<{ lines: number; packs: number }> {
    const lines = await this.writeLines();
    const packs = await this.buildPacks();
    return { lines, packs };
  }

  private async writeLines(): Promise<number> {
    const model = this.o.model;
    if (!model) return 0;
    let written = 0;
    for (const d of await pendingLines(this.db, this.o.batch ?? 20)) {
      let line: string | null = null;
      try {
        line = await model.write({
          onBehalfOf: d.principal,
          system: DIGEST_SYSTEM,
          prompt: digestPrompt(d.project_name, d.total, d.counts),
          maxTokens: 80,
        });
        written += 1;
      } catch (e) {
        this.o.onError?.(e as Error);
      }
      await settleLine(this.db, d, line);
    }
    return written;
  }

  private async buildPacks(): Promise<number> {
    let built = 0;
    for (const projectId of await stalePackProjects(this.db, this.o.batch ?? 20)) {
      // Positions first: a change landing while the content is read leaves the pack stale, never wrongly fresh.
      const positions = await projectPositions(this.db, projectId);
      const project = await findProject(this.db, projectId);
      if (!project) continue;
      const content = await packContent(this.db, project);
      let summary: string | null = null;
      if (this.o.model) {
        try {
          summary = await this.o.model.write({
            onBehalfOf: project.created_by,
            system: PACK_SYSTEM,
            prompt: packPrompt(content),
            maxTokens: 200,
          });
        } catch (e) {
          this.o.onError?.(e as Error);
        }
      }
      await savePack(
        this.db,
        { project_id: projectId, ...positions, content, summary, degraded: summary === null },
        this.clock(),
      );
      built += 1;
    }
    return built;
  }

  /** Runs every `intervalMs` until stopped, one run at a time. */
  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.run()
        .catch((e) => this.o.onError?.(e as Error))
        .finally(() => {
          this.running = undefined;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
