/**
 * A worker that runs continuously: one pass, then a wait, then the next pass, until stopped
 * (the importers wait 15 minutes between passes, WS-526). The wait starts when a pass ends, so
 * two passes never overlap. A failing pass is reported and the loop goes on. `sleep` is injected
 * so that tests decide when time passes; stop() ends the wait at once and resolves when the
 * running pass is over.
 */
export interface PassLoopOptions {
  name: string;
  pass: () => Promise<unknown>;
  waitMs: number;
  onError?: (e: unknown) => void;
  /** Called as each pass starts. */
  onPass?: () => void;
  /** Resolves after ms, or early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export class PassLoop {
  private readonly stopping = new AbortController();
  private running?: Promise<void>;

  constructor(private readonly o: PassLoopOptions) {}

  start() {
    this.running ??= this.loop();
    return this;
  }

  private async loop() {
    const sleep = this.o.sleep ?? realSleep;
    while (!this.stopping.signal.aborted) {
      try {
        this.o.onPass?.();
        await this.o.pass();
      } catch (e) {
        this.o.onError?.(e);
      }
      if (this.stopping.signal.aborted) break;
      await sleep(this.o.waitMs, this.stopping.signal);
    }
  }

  /** Resolves when the loop has ended (after stop()). */
  finished() {
    return this.running ?? Promise.resolve();
  }

  async stop() {
    this.stopping.abort();
    await this.running;
  }
}
