// Runs the Stripe double as a process (Playwright starts it as a web server).
import { startStripeDouble } from './stripe-double.ts';

const port = Number(process.env.STRIPE_DOUBLE_PORT ?? 12111);
const double = await startStripeDouble(port);
console.log(`stripe double on ${double.url}`);
process.on('SIGTERM', () => void double.stop().then(() => process.exit(0)));
