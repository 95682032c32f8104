import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP_DIR = fileURLToPath(new URL('../.tmp/api/', import.meta.url));
export const TEMPLATE_DB = `${TMP_DIR}template.db`;
