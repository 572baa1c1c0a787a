import { setMaxListeners } from 'node:events';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { API_PREFIX } from '../contract/api-paths';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { createAuthGuards, createScopeNarrowing } from './http/auth';
import { installJsonParser } from './http/body';
import { installErrorHandler } from './http/errors';
import { isLoggerInstance, loggerOptions, RequestLog, type AppLogger } from './http/logger';
import { registerOpenApi } from './http/openapi';
import { rewriteToOriginForm } from './http/request-target';
import { installRequestRules, MAX_URL_LENGTH, routerErrorOptions } from './http/router-errors';
import { installSecurityHeaders } from './http/security';
import { trackSilentSockets } from './http/silent-sockets';
import { registerSpa } from './http/spa';
import { installContractValidation } from './http/validation';
import { resumeIngestion } from './services/documents/ingest/ingest-document';
import type { JobHandlers } from './platform/jobs/queue';
import { jobHandlers } from './job-handlers';
import { createJobQueue } from './platform/jobs/job-queue';
import type { SqlJobQueueOptions } from './platform/jobs/sql-queue';
import { createChatModel } from './llm/create-model';
import type { ChatModel } from './llm/types';
import { authRoutes } from './routes/auth';
import { chatRoutes } from './routes/chat';
import { clientRoutes } from './routes/clients';
import { departmentRoutes } from './routes/departments';
import { documentRoutes } from './routes/documents';
import { feedbackRoutes } from './routes/feedback';
import { contactFormRoutes } from './routes/contact-form';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { globalPolicyRoutes } from './routes/global-policy';
import { oauthConfigRoutes } from './routes/oauth-configs';
import { ldapSettingsRoutes } from './routes/ldap-settings';
import { systemPromptRoutes } from './routes/system-prompts';
import { usageReportRoutes } from './routes/usage-reports';
import { promptLibraryRoutes } from './routes/prompt-library';
import { registrationRoutes } from './routes/registration';
import { shareRoutes } from './routes/shares';
import { quotaRoutes } from './routes/quotas';
import { ssoRoutes } from './routes/sso';
import { subscriptionRoutes } from './routes/subscriptions';
import { tipRoutes } from './routes/tips';
import { userRoutes } from './routes/users';
import { createBackgroundTasks } from './platform/background';
import { createLocalFileStorage, type FileStorage } from './platform/file-storage';
import { createS3FileStorage } from './platform/s3-file-storage';
import { resolveJwtSecret } from './services/identity/jwt-secret';
import { requireOAuthKeyForStoredConfigs } from './services/identity/oauth-configs';
import { scheduleUpkeep } from './upkeep';
import { createMailer, type Mailer } from './platform/mailer';
import { countedJobHandlers, createMetrics } from './platform/metrics';
import { connectRedis } from './platform/redis';
import { createRedisStreamHub } from './platform/redis-stream-hub';
import { createSqlRateLimitStore, type RateLimitStore } from './platform/rate-limit';
import { createMemoryStreamHub, type StreamHub } from './platform/stream-hub';
import { createReplyStops } from './services/chat/reply-stops';
import { createFairUseMeter } from './services/organisation/fair-use';
import { createReplyWriter } from './services/chat/reply-writer';
import { createTokenService } from './services/identity/tokens';

export interface BuildAppOptions {
  config: Config;
  /** Migrated already; owned by the caller (not destroyed on close). */
  db: Kysely<Database>;
  mailer?: Mailer;
  rateLimits?: RateLimitStore;
  /** Default: from config.llm (the offline demo responder when no model is configured). */
  llm?: ChatModel;
  /** Default: in memory (one instance). */
  streams?: StreamHub;
  /** Default: local files under DATA_DIR/files. */
  files?: FileStorage;
  /** false: silent; an options object: merged with the redaction rules; a logger instance: used as is. */
  logger?: AppLogger;
  /** Sees every route as it is registered (tests compare them with the OpenAPI document). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Takes part in the server's periodic upkeep (server/upkeep.ts, repeating jobs) from ready until close: the
   * server process does (server/main.ts); tests that build many apps call the tasks they check themselves.
   */
  maintenance?: boolean;
  /** The job queue's timings (tests: short leases and polls), and handlers standing in for the registry's. */
  jobs?: Partial<SqlJobQueueOptions> & { handlers?: Partial<JobHandlers> };
}

/** On close, replies still being written get this long to finish before they are cut off (and saved so). */
const REPLY_GRACE_MS = 5_000;
/** While closing, how often connections that have gone idle since are dropped. */
const IDLE_REAP_MS = 100;

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  // Before anything listens: stored OAuth secrets without the key that opens them would fail every SSO sign-in.
  await requireOAuthKeyForStoredConfigs(db, config.oauthSecretKey);
  const logger = opts.logger ?? true;
  const serverOptions = {
    trustProxy: config.trustProxy,
    // No limit of the router's own below the URL's: an id too long is refused by its route's schema, with a sentence
    // naming the field (contract/fields.ts), and a URL too long with 414 (router-errors.ts).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_URL_LENGTH },
    rewriteUrl: rewriteToOriginForm,
    logController: new RequestLog(),
    ...routerErrorOptions,
  };
  const app: FastifyInstance = isLoggerInstance(logger)
    ? Fastify({ ...serverOptions, loggerInstance: logger })
    : Fastify({
        ...serverOptions,
        logger: logger === false ? false : loggerOptions(config.logLevel, logger === true ? {} : logger),
      });

  const closing = new AbortController();
  // Every reply in progress listens to this one signal: many at once are expected, not a leak.
  setMaxListeners(0, closing.signal);
  const jobs = createJobQueue({ config, db, log: app.log, closing: closing.signal }, opts.jobs);
  const redis = config.redisUrl ? connectRedis(config.redisUrl, app.log, 'main') : undefined;
  // With Redis, replies reach followers on every instance; a subscriber connection serves all of this one's.
  const subscriber = config.redisUrl && !opts.streams ? connectRedis(config.redisUrl, app.log, 'subscriber') : undefined;
  const redisHub = redis && subscriber ? createRedisStreamHub({ redis, subscriber, log: app.log, prefix: config.redisPrefix }) : undefined;
  const ctx: AppContext = {
    config,
    db,
    tokens: createTokenService(resolveJwtSecret(config), config.accessTokenTtlSeconds),
    mailer: opts.mailer ?? createMailer(config),
    rateLimits: opts.rateLimits ?? createSqlRateLimitStore(db),
    background: createBackgroundTasks(app.log),
    jobs,
    log: app.log,
    llm: opts.llm ?? createChatModel(config.llm, app.log),
    replies: createReplyWriter(db, app.log),
    replyStops: createReplyStops(db, app.log),
    fairUse: createFairUseMeter(db),
    streams: opts.streams ?? redisHub ?? createMemoryStreamHub(),
    closing: closing.signal,
    files: opts.files ?? (config.s3 ? createS3FileStorage(config.s3) : createLocalFileStorage(path.join(config.dataDir, 'files'))),
    metrics: createMetrics(jobs),
    redis,
  };
  jobs.handle(countedJobHandlers({ ...jobHandlers(ctx), ...opts.jobs?.handlers }, ctx.metrics));
  const guards = createAuthGuards(db, ctx.tokens);

  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  // Every answered request by its route's template (one series per route, not per id); streams are counted apart.
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics.requestAnswered(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.decorateRequest('auth', null);
  app.decorateRequest('scope', null);
  app.addHook('preHandler', createScopeNarrowing(db));
  installErrorHandler(app);
  installRequestRules(app);
  installContractValidation(app);
  installJsonParser(app);
  // The contact form's widget only where a site key is configured (without one the form never loads it).
  installSecurityHeaders(app, ctx.config.contactForm.recaptchaSiteKey ? ctx.config.contactForm.recaptchaScriptUrl : undefined);
  // A long conversation is a megabyte of JSON and the SPA's scripts are text: both shrink several times.
  // The chat stream is written to the raw socket (hijacked), so it is never buffered by compression.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  // Before the routes: the document is built from every route registered after it.
  await registerOpenApi(app);
  await app.register(
    async (api) => {
      await healthRoutes(api, ctx);
      await authRoutes(api, ctx);
      await ssoRoutes(api, ctx);
      await userRoutes(api, ctx, guards);
      await registrationRoutes(api, ctx, guards);
      await departmentRoutes(api, ctx, guards);
      await chatRoutes(api, ctx, guards);
      await shareRoutes(api, ctx, guards);
      await documentRoutes(api, ctx, guards);
      await promptLibraryRoutes(api, ctx, guards);
      await tipRoutes(api, ctx, guards);
      await feedbackRoutes(api, ctx, guards);
      await contactFormRoutes(api, ctx, guards);
      await globalPolicyRoutes(api, ctx, guards);
      await usageReportRoutes(api, ctx, guards);
      await oauthConfigRoutes(api, ctx, guards);
      await ldapSettingsRoutes(api, ctx, guards);
      await systemPromptRoutes(api, ctx, guards);
      await clientRoutes(api, ctx, guards);
      await subscriptionRoutes(api, ctx, guards);
      await quotaRoutes(api, ctx, guards);
    },
    { prefix: API_PREFIX },
  );
  await metricsRoutes(app, ctx);
  await registerSpa(app, config.staticDir);
  app.addHook('onReady', async () => {
    jobs.start();
    if (opts.maintenance) await scheduleUpkeep(jobs);
    // Documents left unfinished without a job get one (in the background: start-up does not wait).
    ctx.background.run('resume ingestion', () => resumeIngestion(ctx));
  });

  // Streams being written are in-flight requests, which close() waits for before onClose: the grace period
  // starts earlier, in preClose, so a reply stuck on a silent provider cannot hold the shutdown.
  let cutOff: NodeJS.Timeout | undefined;
  let reaper: NodeJS.Timeout | undefined;
  const silentSockets = trackSilentSockets(app.server);
  app.addHook('preClose', async () => {
    cutOff = setTimeout(() => closing.abort(), REPLY_GRACE_MS);
    // server.close() drops idle kept-alive connections only once. A download whose last byte has reached the
    // client while our side still waits for the file stream's end is not idle at that instant, and would then
    // hold the close until the client hangs up (72 s keep-alive). So idle connections are dropped until it closes.
    reaper = setInterval(() => {
      app.server.closeIdleConnections();
      silentSockets.destroyAll();
    }, IDLE_REAP_MS);
  });
  app.addHook('onClose', async () => {
    clearInterval(reaper);
    // Replies first: one that ends now asks for its conversation's title, a job this process still runs.
    await ctx.background.drain();
    await jobs.stop();
    clearTimeout(cutOff);
    ctx.mailer.close();
    await redisHub?.shutdown();
    subscriber?.disconnect();
    ctx.redis?.disconnect();
  });
  return app;
}
