// What the run page's list of distribute_cfs_runtime() calls is a list of. The histogram counts every call; the
// result keeps the first record.max_distribute_calls of them (docs/scenarios.md), so a done run's "slowest" and
// "latest" are those of the calls kept, not of the run, once it made more. The list's title and note say which
// subset it is and why, and how many of the histogram's calls are slower than any listed, so that the two never
// disagree without a word (a walk found "slowest 61.8 µs" beside a histogram with calls in [64K, 128K)).
import type { DistributeCall } from './stream';
import { bucketLabel, type Histogram } from './hist';
import { formatCount, formatDurationNs, plural } from './format';

export interface CallsCaption {
  title: string;
  /** '' when the list is of every call (a live run's, or a result that kept them all) */
  note: string;
}

/**
 * @param mode    the slowest calls, or the latest
 * @param listed  the calls the list shows
 * @param kept    how many calls the list was chosen from (the result's distribute_calls); null: all of the run's
 *                (live: the server picks from every call)
 * @param hist    the run's histogram of every call
 */
export function callsCaption(mode: 'slowest' | 'latest', listed: DistributeCall[], kept: number | null,
                             hist: Histogram | undefined, simulatedNs: number): CallsCaption {
  const total = hist?.count ?? 0;
  const capped = kept != null && total > kept;
  const what = mode === 'slowest' ? 'Slowest' : 'Latest';
  if (!capped) return { title: `${what} distribute_cfs_runtime() calls`, note: '' };
  const title = `${what} of the first ${formatCount(kept)} distribute_cfs_runtime() calls`;
  const why = `The result keeps the first ${formatCount(kept)} of the run's ${plural(total, 'call')} with their counters ` +
    `(record.max_distribute_calls; raise it to keep more); the histogram above counts all ${formatCount(total)}.`;
  const lastKeptNs = listed.length ? Math.max(...listed.map((c) => c.at_ns)) : 0;
  if (mode === 'latest') {
    return { title, note: `${why} These are the last calls kept, the latest at ${formatDurationNs(lastKeptNs, 1e9)} of ` +
      `${formatDurationNs(simulatedNs, 1e9)} simulated; the ${formatCount(total - kept)} after it are in the histogram only.` };
  }
  const slowestListed = listed.length ? Math.max(...listed.map((c) => c.duration_ns)) : 0;
  // buckets wholly above the slowest listed call: calls the list cannot show (they came after the first `kept`)
  const above = (hist?.buckets ?? []).filter((b) => b.low > slowestListed && b.count > 0);
  const slower = above.reduce((n, b) => n + b.count, 0);
  const tail = slower > 0
    ? ` ${plural(slower, 'call')} in the histogram (its ${bucketLabel(above[0])} bucket and up) ${slower === 1 ? 'is' : 'are'} slower than any listed here.`
    : ' None of the histogram\'s calls is in a bucket above the slowest listed here.';
  return { title, note: why + tail };
}
