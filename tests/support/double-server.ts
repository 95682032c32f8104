// Runs a double as a process (Playwright starts these as web servers):
//   node tests/support/double-server.ts stripe|uploadthing|smtp <port>
// The UploadThing double answers over HTTPS, like the real service. The SMTP double takes mail
// on <port> and shows what arrived over HTTP on <port>+1 (GET /messages, newest last).
import { createServer } from 'node:http';
import { listen, sendJson } from './double-http.ts';
import { startSmtpDouble } from './smtp-double.ts';
import { startStripeDouble } from './stripe-double.ts';
import { startUploadThingDouble } from './uploadthing-double.ts';

async function smtpWithInbox(port: number) {
  const smtp = await startSmtpDouble(port);
  const inbox = createServer((req, res) => {
    if (req.url === '/messages') {
      const messages = smtp.messages.map((m) => ({
        to: m.to
          ? [m.to]
              .flat()
              .map((a) => a.text)
              .join(', ')
          : '',
        subject: m.subject ?? '',
        text: m.text ?? '',
        headers: Object.fromEntries(m.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()])),
      }));
      return sendJson(res, 200, messages);
    }
    sendJson(res, req.url === '/__health' ? 200 : 404, { ok: req.url === '/__health' });
  });
  const http = await listen(inbox, port + 1);
  return { url: smtp.url, stop: async () => void (await Promise.all([smtp.stop(), http.stop()])) };
}

const starters = { stripe: (port: number) => startStripeDouble(port), uploadthing: (port: number) => startUploadThingDouble(port, { tls: true }), smtp: smtpWithInbox };

const [name = '', portArg] = process.argv.slice(2);
const port = Number(portArg);
if (!(name in starters) || !Number.isInteger(port) || port <= 0) throw new Error(`usage: double-server.ts stripe|uploadthing|smtp <port> (got ${process.argv.slice(2).join(' ')})`);
const double = await starters[name as keyof typeof starters](port);
console.log(`${name} double on ${double.url}`);
process.on('SIGTERM', () => void double.stop().then(() => process.exit(0)));
