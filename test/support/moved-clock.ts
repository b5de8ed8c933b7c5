// Two clocks moved in step for tests of scheduled work: pg-boss's TestClock (the job worker's
// timers and its SQL's now) and the app's own clock (deps.now()). Jumping moves both without a
// poll in between, as after a worker's sleep; settling lets the worker poll a second at a time
// until no job of the given queues is running or due.
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { TestClock } from 'pg-boss';
import { JOB_SCHEMA } from '../../src/platform/jobs/grants.ts';
import type { TestApp } from './app.ts';

export interface MovedClock {
  /** Jobs of the queues running, or queued with their time come. */
  dueJobs(): Promise<number>;
  /** Polls until nothing of the queues is due (throws after 400 seconds of moved time). */
  settled(): Promise<void>;
  /** Moves both clocks to `moment`, firing nothing, waiting for nothing. */
  jumpTo(moment: string): Promise<void>;
}

export function movedClock(t: TestApp, clock: TestClock, queues: string[]): MovedClock {
  const dueJobs = async () => {
    const r = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.raw(JOB_SCHEMA)}.job
       where name in (${sql.join(queues)})
         and (state = 'active' or (state in ('created', 'retry') and start_after <= ${new Date(clock.now())}))`.execute(
      t.database.db,
    );
    return r.rows[0]!.n;
  };
  return {
    dueJobs,
    async settled() {
      for (let i = 0; i < 400; i++) {
        await clock.tick(1000);
        t.clock.set(new Date(clock.now()));
        if ((await dueJobs()) === 0) return;
        await sleep(5);
      }
      throw new Error(`jobs of ${queues.join(', ')} did not settle`);
    },
    async jumpTo(moment) {
      t.clock.set(moment);
      await clock.setTime(new Date(moment));
    },
  };
}
