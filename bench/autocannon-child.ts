// A child process of the bench (support.ts `autocannon` with `vary` or `cpu`): autocannon's
// programmatic API, so that a POST can get a body of its own every request (the `vary` field
// of the JSON body made unique by a counter), and the load generator's own CPU time is known.
// Prints autocannon's result as JSON, as the CLI's -j does, with `cpuMs` added.
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2]!) as {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  method: 'GET' | 'POST';
  body?: string;
  vary?: string;
};
const cpu0 = process.cpuUsage();
const template = config.body ? (JSON.parse(config.body) as Record<string, unknown>) : undefined;
const vary = config.vary;
let n = 0;
const result = await autocannon({
  url: config.url,
  connections: config.connections,
  duration: config.seconds,
  headers: { ...(config.body ? { 'content-type': 'application/json' } : {}), ...config.headers },
  requests: [
    {
      method: config.method,
      ...(config.body && !vary ? { body: config.body } : {}),
      ...(template && vary
        ? {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                ...template,
                [vary]: `${String(template[vary] ?? '')}${process.pid}-${++n}`,
              }),
            }),
          }
        : {}),
    },
  ],
});
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ ...(result as object), cpuMs: (cpu.user + cpu.system) / 1000 }));
