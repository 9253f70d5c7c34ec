// The checkout the server runs from (apps/server/src → three levels up): the source tree it serves
// (AGPL §13), and the base of the defaults that sit beside it (../shared/demo-media, fonts).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
