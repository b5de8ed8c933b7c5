// A child process of the bench (support.ts `autocannon` with `vary`): autocannon's programmatic
// API, so that every request gets a body of its own, the `vary` field of the JSON body made
// unique by a counter. Prints autocannon's result as JSON, as the CLI's -j does.
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2]!) as {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  body: string;
  vary: string;
};
const template = JSON.parse(config.body) as Record<string, unknown>;
let n = 0;
const result = await autocannon({
  url: config.url,
  connections: config.connections,
  duration: config.seconds,
  headers: { 'content-type': 'application/json', ...config.headers },
  requests: [
    {
      method: 'POST',
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({
          ...template,
          [config.vary]: `${String(template[config.vary] ?? '')}${process.pid}-${++n}`,
        }),
      }),
    },
  ],
});
process.stdout.write(JSON.stringify(result));
