// Where the tests and the bench find the project and keep their temporary files.
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP_DIR = fileURLToPath(new URL('../../tests/.tmp/api/', import.meta.url));
export const TEMPLATE_DB = `${TMP_DIR}template.db`;
