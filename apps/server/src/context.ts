// What routes and commands share: built once by buildApp (or by the admin CLI) and passed down.
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Db } from './db/database.ts';
import type { UserRow } from './db/schema.ts';
import type { EmailSender } from './email/email-sender.ts';
import type { TokenService } from './accounts/tokens.ts';
import type { UserFiles } from './storage/user-files.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: TokenService;
  email: EmailSender;
  files: UserFiles;
}

export interface AuthContext {
  user: UserRow;
  /** the session of a JWT; for a personal API token a value no session row has */
  sessionId: string;
  /** set when the request came with a personal API token instead of a session's access token */
  apiTokenId: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}
