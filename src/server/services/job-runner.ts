/*
 * A job a process runs now and then (collecting future payments, reconciling lost answers): one
 * run at a time in this process, on a timer that does not keep the process alive. Runs in several
 * processes on one PostgreSQL share the work by claiming their rows in one statement each.
 */

export type TJobRunner<TRun> = {
  /** Runs now (one run at a time in this process: a call during a run shares it). */
  runDue(): Promise<TRun>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
};

export function jobRunner<TRun>(
  run: () => Promise<TRun>,
  onError: (error: unknown) => void,
): TJobRunner<TRun> {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<TRun> | null = null;
  const runner: TJobRunner<TRun> = {
    runDue() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(() => {
        if (!running) runner.runDue().catch(onError);
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return runner;
}
