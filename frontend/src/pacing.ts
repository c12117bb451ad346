// A paced run (POST /api/runs "pace": simulated seconds per wall-clock second) on a busy machine can fall behind
// its pace: the worker sleeps to hold the pace but cannot go faster than the CPU it gets. The run page says so,
// from the progress reports it receives, instead of showing "10× real time" for a run going at 2.8×.
import { formatPace } from './format';

/** Below this share of the asked pace the run is said to be behind (a report's own jitter stays under it). */
export const BEHIND_SHARE = 0.8;
/** The window the achieved pace is measured over, wall-clock ms (short enough to follow a change of load). */
export const WINDOW_MS = 5000;
/** No verdict before this much wall time has been observed (the first reports come in bursts). */
export const MIN_SPAN_MS = 2000;

export class PaceWatch {
  private readonly points: { wallMs: number; simulatedNs: number }[] = [];

  constructor(private readonly pace: number) {}

  /**
   * @param simulatedNs the run's simulated time in a progress report
   * @param wallMs      when the report arrived (performance.now())
   * @returns "running at 2.8×, behind 10×: the machine is busy", or null while the run keeps its pace (or too
   *          little has been seen to tell)
   */
  observe(simulatedNs: number, wallMs: number): string | null {
    const last = this.points[this.points.length - 1];
    if (!last || simulatedNs >= last.simulatedNs) this.points.push({ wallMs, simulatedNs });
    while (this.points.length > 2 && wallMs - this.points[1].wallMs >= WINDOW_MS) this.points.shift();
    const first = this.points[0];
    const now = this.points[this.points.length - 1];
    const spanMs = now.wallMs - first.wallMs;
    if (spanMs < MIN_SPAN_MS) return null;
    const achieved = (now.simulatedNs - first.simulatedNs) / 1e6 / spanMs;
    if (achieved >= this.pace * BEHIND_SHARE) return null;
    return `running at ${formatPace(achieved)}, behind ${formatPace(this.pace)}: the machine is busy`;
  }
}
