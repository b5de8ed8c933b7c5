// A worker process for the multi-worker test: runs the `count` queue on JOB_DATABASE_URL,
// recording each run in job_runs (no unique key, so a job run twice shows as two rows).
// Prints "ready" once it polls; SIGTERM stops it the way main.ts does.
import { connect } from '../../src/platform/db/connect.ts';
import { createJobs } from '../../src/platform/jobs/jobs.ts';

const database = await connect({ databaseUrl: process.env.JOB_DATABASE_URL!, poolSize: 4 });
const log = { error: console.error, warn() {}, info() {} };
const jobs = createJobs({ database, log, pollingIntervalSeconds: 0.5 });
await jobs.register<{ n: number }>(
  'count',
  async (job) => {
    await database.db
      .insertInto('job_runs' as never)
      .values({ job_id: job.id, n: job.data.n, pid: process.pid } as never)
      .execute();
  },
  { concurrency: 4 },
);
await jobs.start();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await jobs.stop();
  await database.close();
  process.exit(0);
});
