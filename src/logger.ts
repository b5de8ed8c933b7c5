// Structured JSON logs with the request id. Credentials never reach a log line: the
// request serializer drops headers and query strings, and known secret paths are redacted.
import { writeSync } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import pino from 'pino';

export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refreshToken',
        '*.accessToken',
        '*.token',
        '*.totpCode',
        '*.secret',
        '*.key',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: FastifyRequest) {
        return {
          method: req.method,
          url: (req.url ?? '').split('?')[0],
          remoteAddress: req.ip,
        };
      },
    },
  };
}

/**
 * The service's logger, writing to `dest` (stdout by default) asynchronously: lines are
 * handed to the operating system as they come, several to a write while one is in flight,
 * instead of one blocking write per line on the request path (measured: bench/README.md).
 * `flushNow()` writes what is left; main.ts calls it before the process exits.
 */
export function createLogger(level: string, dest: number | string = 1) {
  const destination = pino.destination({ dest, sync: false });
  boundExitFlush(destination as unknown as PendingLines);
  giveUpWhenUnread(destination as unknown as PendingLines & NodeJS.EventEmitter);
  const logger = pino(loggerOptions(level), destination);
  return Object.assign(logger, { flushNow: () => destination.flushSync() });
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** The longest the last lines are tried at exit before they are given up. */
export const EXIT_FLUSH_MS = 1000;

/** What sonic-boom (pino's destination, 4.x) keeps of the lines not yet written. */
interface PendingLines {
  fd: number;
  write(line: string): boolean;
  _bufs: string[];
  _writingBuf: string;
  _writing: boolean;
  _len: number;
  flushSync(): void;
}

/**
 * sonic-boom's flushSync, which pino also runs at exit, retries a write that fails with
 * anything but EAGAIN forever, 100 ms apart: with the reader of stdout gone (a log collector
 * that died, a closed terminal: EPIPE) the process never ended, nor could the stop's
 * force-exit timer fire (issue 15). This one writes what is left once, retries only a full
 * pipe (EAGAIN) and only for EXIT_FLUSH_MS, and gives up the lines on any other error:
 * nobody is left to read them.
 */
export function boundExitFlush(stream: PendingLines): void {
  if (!Array.isArray(stream._bufs) || typeof stream._writingBuf !== 'string') {
    throw new Error('pino.destination is not the sonic-boom this logger knows (utf8 buffers)');
  }
  stream.flushSync = function boundedFlushSync() {
    // A write in flight stays the thread pool's: its bytes are not written twice.
    const pending = (this._writing ? '' : this._writingBuf) + this._bufs.join('');
    this._bufs = [];
    this._len = 0;
    if (!this._writing) this._writingBuf = '';
    let rest = Buffer.from(pending, 'utf8');
    const deadline = Date.now() + EXIT_FLUSH_MS;
    while (rest.length > 0 && this.fd >= 0) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code !== 'EAGAIN' && code !== 'EBUSY') || Date.now() > deadline) return;
        Atomics.wait(PAUSE, 0, 0, 10);
      }
    }
  };
}

/**
 * A write that fails for good (EPIPE: the reader of stdout went away, a log collector that died)
 * made sonic-boom emit `error`, which nobody handled: the process ended at once, dropping the
 * requests in flight (issue 35). The service keeps serving instead: the lines waiting are given
 * up, and so is every later one (nobody is left to read them; retrying would only hold them in
 * memory). One note goes to stderr, if anyone reads that. A stop then ends as usual, within its
 * grace period (the exit flush is bounded: boundExitFlush).
 */
export function giveUpWhenUnread(stream: PendingLines & NodeJS.EventEmitter): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    stream._bufs = [];
    stream._writingBuf = '';
    stream._len = 0;
    stream.write = () => true;
    try {
      process.stderr.write(`log lines are given up: their destination failed (${err.code ?? err.message})\n`);
    } catch {
      // stderr is gone too: nothing more to say.
    }
  });
}
