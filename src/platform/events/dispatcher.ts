// When the outbox is drained (dispatch.ts does the draining):
//  - right after a transaction that emitted commits, in the process that wrote it (emit()
//    registers a kick with afterCommit): kicks coalesce, so a burst of commits is drained in
//    a few passes of up to 500 events each, not one pass per event;
//  - every SWEEP_MS in a process whose job worker runs: events left pending by a process that
//    stopped between its commit and its pass (a crash, a kill), or by a failed pass.
// A pass queues the delivery jobs in pg-boss with `notify`, so the workers of every process
// wake at the jobs' commit (LISTEN/NOTIFY) instead of at their next poll.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect.ts';
import type { Jobs } from '../jobs/jobs.ts';
import { type Dispatched, dispatchEvents, dispatchPending } from './dispatch.ts';

export const SWEEP_MS = 5_000;

export interface EventDispatcher {
  /**
   * An event committed (its tenant and id), or, with no arguments, the sweep's call: dispatch
   * soon. Kicks coalesce; a kick never throws.
   */
  kick(tenantId?: string, eventId?: string): void;
  /** Drains until nothing is pending, after any pass in flight (tests read deliveries after it). */
  drain(): Promise<Dispatched>;
  /** Starts the sweep; the log receives failed passes. */
  start(log: Pick<FastifyBaseLogger, 'error'>): void;
  /** Stops the sweep and waits for the pass in flight. */
  stop(): Promise<void>;
}

export function createEventDispatcher(deps: {
  database: Database;
  jobs: Jobs;
  /** How often the sweep runs (tests shorten it). */
  sweepMs?: number;
}): EventDispatcher {
  let running: Promise<void> | undefined;
  let again = false;
  /** Events this process committed and has yet to dispatch, by tenant. */
  let mine = new Map<string, string[]>();
  /** The sweep asked: every tenant's pending events. */
  let everything = false;
  let stopped = false;
  let sweep: NodeJS.Timeout | undefined;
  let log: Pick<FastifyBaseLogger, 'error'> | undefined;

  const pass = async () => {
    do {
      again = false;
      const batch = mine;
      const all = everything;
      mine = new Map();
      everything = false;
      try {
        // One tenant transaction per tenant: no search for what this process wrote itself.
        for (const [tenantId, ids] of batch) await dispatchEvents(deps, tenantId, ids);
        if (all) await dispatchPending(deps);
      } catch (err) {
        // Left pending: the next kick or sweep tries again.
        log?.error({ err: { message: (err as Error).message } }, 'events dispatch failed');
        return;
      }
    } while (again && !stopped);
  };

  const kick = (tenantId?: string, eventId?: string) => {
    if (stopped || !deps.jobs.status().started) return;
    if (tenantId && eventId) {
      const ids = mine.get(tenantId);
      if (ids) ids.push(eventId);
      else mine.set(tenantId, [eventId]);
    } else everything = true;
    if (running) {
      again = true;
      return;
    }
    running = new Promise<void>((resolve) => setImmediate(resolve)).then(pass).finally(() => {
      running = undefined;
    });
  };

  return {
    kick,
    async drain() {
      while (running) await running;
      return dispatchPending(deps);
    },
    start(logger) {
      log = logger;
      stopped = false;
      if (sweep) return;
      sweep = setInterval(() => {
        if (deps.jobs.status().working) kick();
      }, deps.sweepMs ?? SWEEP_MS);
      sweep.unref();
    },
    async stop() {
      stopped = true;
      if (sweep) clearInterval(sweep);
      sweep = undefined;
      while (running) await running;
    },
  };
}
