// Runs a double as a process (Playwright starts these as web servers):
//   node tests/support/double-server.ts stripe|uploadthing <port>
// The UploadThing double answers over HTTPS, like the real service.
import { startStripeDouble } from './stripe-double.ts';
import { startUploadThingDouble } from './uploadthing-double.ts';

const starters = {
  stripe: (port: number) => startStripeDouble(port),
  uploadthing: (port: number) => startUploadThingDouble(port, { tls: true }),
};

const [name = '', portArg] = process.argv.slice(2);
const port = Number(portArg);
if (!(name in starters) || !Number.isInteger(port) || port <= 0) throw new Error(`usage: double-server.ts stripe|uploadthing <port> (got ${process.argv.slice(2).join(' ')})`);
const double = await starters[name as keyof typeof starters](port);
console.log(`${name} double on ${double.url}`);
process.on('SIGTERM', () => void double.stop().then(() => process.exit(0)));
