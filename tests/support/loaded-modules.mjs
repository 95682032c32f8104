// Loaded into a test server with NODE_OPTIONS=--import: writes the URL of every module the
// process loaded to the file LOADED_MODULES names, one a line, when the process exits.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = [];
registerHooks({
  load(url, context, next) {
    loaded.push(url);
    return next(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.LOADED_MODULES, loaded.join('\n')));
