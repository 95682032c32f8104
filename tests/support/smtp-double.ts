// A local SMTP server standing in for the mail provider: nodemailer talks real SMTP to it, and
// it keeps every message it receives, parsed (mailparser), for the tests to read.
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpDouble {
  port: number;
  /** The SMTP_URL that points the site at this double. */
  url: string;
  messages: ReceivedMail[];
  /** The first message (arrived or arriving) that `match` accepts. */
  waitFor: (match: (m: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
  /** Addresses answered '550 5.1.1' (no such mailbox: refused for good) at RCPT TO. */
  refuse: Set<string>;
  /** Addresses refused at RCPT TO with the reply given ('550 5.1.1 No such user'). */
  refuseWith: Map<string, string>;
  /** While set, every recipient is refused at RCPT TO with this reply ('550 relay not permitted'). */
  refuseEveryone: { reply: string | null };
  /** Until this time (ms), every message is answered 421 (try again later). */
  busyUntil: { at: number };
  /** Until this time (ms), the sender address is refused for good (553 at MAIL FROM), as a relay refuses a From it does not own. */
  senderRefusedUntil: { at: number };
  /** Until this time (ms), every recipient is refused with '554 5.7.1 Relay access denied', as a relay answers a sender it does not know. */
  relayDeniedUntil: { at: number };
  /**
   * Messages `match` picks are held at the end of DATA, unanswered (a send in flight), until
   * the test calls one of `held` with the reply: nothing for 250, or a code for a refusal.
   */
  hold: { match: ((m: ParsedMail) => boolean) | null; held: ((code?: number) => void)[] };
}

/** Starts the double on `port` (a free one when 0), keeping `messages` across a restart. */
/** A message as the double received it: parsed, and its raw bytes. */
export type ReceivedMail = ParsedMail & { raw: Buffer };

export async function startSmtpDouble(port = 0, messages: ReceivedMail[] = []): Promise<SmtpDouble> {
  const refuse = new Set<string>();
  const refuseWith = new Map<string, string>();
  const refuseEveryone: SmtpDouble['refuseEveryone'] = { reply: null };
  const busyUntil = { at: 0 };
  const senderRefusedUntil = { at: 0 };
  const relayDeniedUntil = { at: 0 };
  const hold: SmtpDouble['hold'] = { match: null, held: [] };
  const fail = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, done) {
      if (Date.now() < senderRefusedUntil.at) return done(fail(553, 'Sender address rejected: not owned by user'));
      done(Date.now() < busyUntil.at ? fail(421, 'Too busy, try again later') : undefined);
    },
    onRcptTo(address, _session, done) {
      if (Date.now() < relayDeniedUntil.at) return done(fail(554, '5.7.1 Relay access denied'));
      const reply = refuseEveryone.reply ?? refuseWith.get(address.address.toLowerCase());
      if (reply) return done(fail(Number(reply.slice(0, 3)), reply.slice(4)));
      done(refuse.has(address.address.toLowerCase()) ? fail(550, '5.1.1 No such user here') : undefined);
    },
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // The message as it arrived (for signature checks), and parsed.
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            const answer = (code?: number) => {
              if (code) return done(fail(code, 'Try again later'));
              messages.push(Object.assign(mail, { raw }));
              done();
            };
            if (hold.match?.(mail)) hold.held.push(answer);
            else answer();
          },
          (err: Error) => done(err),
        );
      });
    },
  });
  // A client that goes away mid-session (a server killed while sending) resets its connection:
  // that is the test's doing, not a failure of the double.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err;
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    async waitFor(match, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching e-mail within ${timeoutMs} ms (got: ${messages.map((m) => m.subject).join(' | ')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    refuse,
    refuseWith,
    refuseEveryone,
    busyUntil,
    senderRefusedUntil,
    relayDeniedUntil,
    hold,
  };
}

/** The first link in a message's text that starts with `prefix`. */
export const linkIn = (mail: ParsedMail, prefix: string) => {
  const found = (mail.text ?? '').split(/\s+/).find((w) => w.startsWith(prefix));
  if (!found) throw new Error(`no link to ${prefix} in: ${mail.text}`);
  return found;
};

/** A header of a message as it was sent (mailparser folds List-* headers into one object). */
export const rawHeader = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
};
