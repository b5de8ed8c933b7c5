// A real SMTP server on a loopback port for tests (the smtp-server package): records every
// message nodemailer hands it, and can be slowed down or made to refuse recipients.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it arrived (headers and MIME body). */
  raw: Buffer;
  /** When its DATA ended (Date.now()). */
  at: number;
}

/** An SMTP reply, e.g. { code: 451, message: '4.3.0 try again later' }. */
export interface Refusal {
  code: number;
  message: string;
}

export interface SmtpReceiver {
  url: string;
  received: ReceivedMail[];
  /** Messages whose DATA arrived and whose answer the server is holding back. */
  held(): number;
  /**
   * From now on, hold the answer to every message's DATA until release() or `maxMs` later,
   * whichever comes first: a slow server (the sender waits, the message is not yet taken).
   */
  hold(maxMs: number): void;
  /** Answers every held message now and stops holding. */
  release(): void;
  /** Refuses the next `times` (default 1) RCPT TO of `address` with this reply. */
  refuse(address: string, refusal: Refusal, times?: number): void;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const pending: Array<() => void> = [];
  const refusals = new Map<string, Refusal[]>();
  let holdMs: number | undefined;

  const server = new SMTPServer({
    // Plain local SMTP: no TLS upgrade, no login, so nodemailer sends straight away.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase())?.shift();
      if (!refusal) return callback();
      const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const take = () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks),
            at: Date.now(),
          });
          callback();
        };
        if (holdMs === undefined) return take();
        let answered = false;
        const answer = () => {
          if (answered) return;
          answered = true;
          clearTimeout(timer);
          take();
        };
        const timer = setTimeout(answer, holdMs);
        pending.push(answer);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const receiver: SmtpReceiver = {
    url: `smtp://127.0.0.1:${port}`,
    received,
    held: () => pending.length,
    hold(maxMs) {
      holdMs = maxMs;
    },
    release() {
      holdMs = undefined;
      for (const answer of pending.splice(0)) answer();
    },
    refuse(address, refusal, times = 1) {
      const key = address.toLowerCase();
      refusals.set(key, [...(refusals.get(key) ?? []), ...Array.from({ length: times }, () => refusal)]);
    },
    async close() {
      receiver.release();
      await new Promise<void>((resolve) => server.close(resolve));
    },
  };
  return receiver;
}

/** The parts of a multipart message (one level), with their headers unfolded. */
export function mimeParts(raw: Buffer | string): Array<{ headers: string; body: string }> {
  const text = raw.toString();
  const split = text.indexOf('\r\n\r\n');
  const top = text.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(top)?.[1];
  if (!boundary) return [{ headers: top, body: text.slice(split + 4) }];
  return text
    .slice(split + 4)
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const body = part.replace(/^\r\n/, '');
      const end = body.indexOf('\r\n\r\n');
      return {
        headers: body.slice(0, end).replace(/\r\n[ \t]+/g, ' '),
        body: body.slice(end + 4).replace(/\r\n$/, ''),
      };
    });
}

/** The attachments of a message: file name, type and the decoded bytes. */
export function attachmentsOf(raw: Buffer | string) {
  return mimeParts(raw)
    .filter((p) => /content-disposition:\s*attachment/i.test(p.headers))
    .map((p) => {
      const filename = /filename="?([^";\r\n]+)"?/i.exec(p.headers)?.[1];
      const contentType = /content-type:\s*([^;\r\n]+)/i.exec(p.headers)?.[1]?.trim();
      const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(p.headers)?.[1]?.toLowerCase();
      if (encoding !== 'base64') throw new Error(`attachment ${filename} encoded ${encoding}`);
      return { filename, contentType, content: Buffer.from(p.body.replace(/\s+/g, ''), 'base64') };
    });
}
