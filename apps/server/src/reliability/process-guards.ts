// Process-level last resorts for the API and the worker. A promise rejection nobody handled (a stray
// `void` call meeting a database restart) is logged as an error, with its stack, and the process goes
// on serving: one lost background call must not take every open request and running job with it. An
// uncaught exception is different: the process state may be broken, so it is logged as fatal in the
// JSON stream (where an operator's log pipeline looks) and the process exits for its supervisor to
// restart it, unless it is a dependency's socket error (the database or Redis away), which is not.
import { isUnavailable } from './unavailable.ts';

export interface GuardLog {
  error(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

let installed = false;

export function installProcessGuards(log: GuardLog, exit: (code: number) => void = process.exit): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason, event: 'unhandledRejection' }, 'unhandled promise rejection; still serving');
  });
  process.on('uncaughtException', (err, origin) => {
    if (isUnavailable(err)) {
      log.error({ err, event: origin }, 'uncaught dependency error; still serving');
      return;
    }
    log.fatal({ err, event: origin }, 'uncaught exception; exiting');
    exit(1);
  });
}
