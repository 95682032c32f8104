// Runs the UploadThing ingest double as a process (Playwright starts it as a web server).
import { startUploadThingDouble } from './uploadthing-double.ts';

const port = Number(process.env.UPLOADTHING_DOUBLE_PORT ?? 12112);
const double = await startUploadThingDouble(port, { tls: true });
console.log(`uploadthing double on ${double.url}`);
process.on('SIGTERM', () => void double.stop().then(() => process.exit(0)));
