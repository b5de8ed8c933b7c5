// How a failed job is retried: pg-boss's own limit/delay/backoff, or an explicit list of
// delays (the webhook schedule: 0 s, 0 s, 1 min, 5 min, ...), one per retry.
export type RetryPolicy =
  | { limit: number; delaySeconds?: number; backoff?: boolean; maxDelaySeconds?: number }
  | { schedule: number[] };

export function queueRetryOptions(policy: RetryPolicy | undefined) {
  if (!policy) return { retryLimit: 0 };
  if ('schedule' in policy) {
    // The first delay is the queue's; each later one is set on the job as it fails.
    return { retryLimit: policy.schedule.length, retryDelay: policy.schedule[0] ?? 0, retryBackoff: false };
  }
  return {
    retryLimit: policy.limit,
    retryDelay: policy.delaySeconds ?? 0,
    retryBackoff: policy.backoff ?? false,
    ...(policy.maxDelaySeconds !== undefined ? { retryDelayMax: policy.maxDelaySeconds } : {}),
  };
}

/**
 * With an explicit schedule, the delay before the next run once the run after `retriesSoFar`
 * retries failed; undefined when pg-boss's own settings decide (or nothing is left).
 */
export function retryDelayAfter(policy: RetryPolicy | undefined, retriesSoFar: number): number | undefined {
  if (!policy || !('schedule' in policy)) return undefined;
  return policy.schedule[retriesSoFar];
}
