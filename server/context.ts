import type { Kysely } from 'kysely';
import type { Config } from './config';
import type { Database } from './db/database';
import type { BackgroundTasks } from './services/background';
import type { Mailer } from './services/mailer';
import type { RateLimitStore } from './services/rate-limit';
import type { TokenService } from './services/tokens';

/** What route handlers and services share; built once per app in app.ts. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  tokens: TokenService;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  background: BackgroundTasks;
}
