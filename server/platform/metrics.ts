import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { JobCutOff, type JobHandler, type JobHandlers, type JobQueue } from './jobs/queue';

/**
 * What GET /metrics reports, in Prometheus text (prom-client): each app's own figures in a registry of its own, so
 * apps built side by side (tests, two instances in one process) never add into each other; the process's figures
 * (CPU, memory, event loop, GC) once per process, since there is one process to describe whatever runs in it.
 */
export interface Metrics {
  /** A request answered (not a hijacked stream): its route template, method, status and seconds. */
  requestAnswered(route: string, method: string, status: number, seconds: number): void;
  /** A reply stream delivered to a client opens or closes. */
  streamOpened(): void;
  streamClosed(): void;
  /** The model's first token, and its whole reply, in seconds since it was asked. */
  modelFirstToken(seconds: number): void;
  modelReplyEnded(seconds: number): void;
  /** A job's run ended here (each instance counts its own runs). */
  jobRan(name: string, outcome: 'ok' | 'failed' | 'cut_off'): void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

// Requests mostly answer in milliseconds; exports and uploads in seconds.
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// A model's first token within tenths of a second to its 30 s timeout; whole replies up to minutes.
const FIRST_TOKEN_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];
const REPLY_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300];

export function createMetrics(jobs: Pick<JobQueue, 'counts'>): Metrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'tanya_http_request_duration_seconds',
    help: 'Time to answer a request, by route template, method and status (streamed replies are counted as streams).',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const streams = new Gauge({ name: 'tanya_open_streams', help: 'Reply streams being delivered to clients now.', registers: [registry] });
  const firstToken = new Histogram({
    name: 'tanya_model_first_token_seconds',
    help: 'From asking the model to its first token.',
    buckets: FIRST_TOKEN_BUCKETS,
    registers: [registry],
  });
  const replyTotal = new Histogram({
    name: 'tanya_model_reply_seconds',
    help: 'From asking the model to the end of its reply.',
    buckets: REPLY_BUCKETS,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'tanya_job_runs_total',
    help: 'Runs of background jobs by this instance, by job name and outcome (failed: may be retried; cut_off: by a shutdown, handed back).',
    labelNames: ['name', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'tanya_jobs',
    help: 'Background jobs by name and status (queued: waiting, running: active, failed: given up).',
    labelNames: ['name', 'status'] as const,
    registers: [registry],
    // Read at each scrape from the queue every instance shares (the jobs table, BullMQ's): the same figures from any.
    async collect() {
      this.reset();
      for (const { name, status, n } of await jobs.counts()) this.set({ name, status }, n);
    },
  });
  return {
    requestAnswered: (route, method, status, seconds) => requests.observe({ route, method, status_code: String(status) }, seconds),
    streamOpened: () => streams.inc(),
    streamClosed: () => streams.dec(),
    modelFirstToken: (seconds) => firstToken.observe(seconds),
    modelReplyEnded: (seconds) => replyTotal.observe(seconds),
    jobRan: (name, outcome) => jobRuns.inc({ name, outcome }),
    async scrape() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
  };
}

/** The handlers, each run counted in `metrics` by its outcome (what shows that upkeep ran once across instances). */
export function countedJobHandlers(handlers: Partial<JobHandlers>, metrics: Pick<Metrics, 'jobRan'>): Partial<JobHandlers> {
  const counted: Record<string, JobHandler> = {};
  for (const [name, handler] of Object.entries(handlers) as Array<[string, JobHandler]>) {
    counted[name] = {
      ...handler,
      async run(payload, run) {
        try {
          await handler.run(payload, run);
          metrics.jobRan(name, 'ok');
        } catch (err) {
          metrics.jobRan(name, err instanceof JobCutOff ? 'cut_off' : 'failed');
          throw err;
        }
      },
    };
  }
  return counted as Partial<JobHandlers>;
}
