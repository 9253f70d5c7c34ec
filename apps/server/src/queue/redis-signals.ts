// REDIS_URL: the job queue's signals between processes over Redis pub/sub. The rows stay the record
// (jobs/db-job-queue.ts, or jobs/bull-job-queue.ts where BullMQ hands the jobs out); this relay carries
// "look at the rows" wakes (idle database-queue workers; a cancel for the BullMQ worker holding a job)
// and "this alignment changed" to the API process that holds the browser's event stream. Losing Redis
// loses no signal that matters: the queues poll or reconcile, event streams read the row every second.
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { JobUpdate } from '../jobs/job-queue.ts';
import { logFailure } from '../reliability/unavailable.ts';
import { connectRedis } from './redis-connection.ts';

/** The part of JobQueue the relay needs. */
export interface SignalledQueue {
  readonly events: EventEmitter;
  wake(): void;
}

interface Message {
  from: string;
  type: 'update' | 'wake';
  update?: JobUpdate;
}

/** How long start() waits for a first subscription before going on without Redis. */
const START_WAIT_MS = 2000;

/** Updates that came from Redis carry this mark so they are not published back. */
const RELAYED = Symbol('relayed');

export class RedisSignals {
  readonly id = randomUUID();
  // made by start(), which imports ioredis: a process without REDIS_URL never loads it
  private pub: Redis | null = null;
  private sub: Redis | null = null;
  private readonly channel: string;
  private readonly localWake: () => void;
  private readonly onUpdate = (u: JobUpdate & { [RELAYED]?: true }): void => {
    if (!u[RELAYED])
      this.publish({
        from: this.id,
        type: 'update',
        update: { alignmentId: u.alignmentId, videoId: u.videoId, modelId: u.modelId ?? null },
      });
  };

  constructor(
    private readonly url: string,
    private readonly queue: SignalledQueue,
    private readonly log: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>,
    prefix = 'tazamun',
  ) {
    this.channel = `${prefix}:jobs`;
    this.localWake = queue.wake.bind(queue);
  }

  /** Connects, subscribes, and makes the queue's wake() and updates travel to every process. */
  async start(): Promise<void> {
    const [pub, sub] = await Promise.all([
      connectRedis(this.url, 'publisher', this.log),
      connectRedis(this.url, 'subscriber', this.log),
    ]);
    this.pub = pub;
    this.sub = sub;
    // Redis may be away at start: the process serves at once (the queues poll or reconcile, streams
    // read the rows) and ioredis keeps reconnecting. The subscription is made on every 'ready', as a
    // subscribe that failed while Redis was away is not one ioredis renews by itself.
    let subscribed: () => void = () => undefined;
    const firstSubscription = new Promise<void>((resolve) => (subscribed = resolve));
    sub.on('ready', () => {
      sub.subscribe(this.channel).then(subscribed, (err: unknown) => {
        this.log.warn({ err: (err as Error).message }, 'redis subscribe failed; retrying on reconnect');
      });
    });
    sub.on('message', (_channel: string, raw: string) => this.receive(raw));
    // The publisher queues nothing while it is not ready (enableOfflineQueue false): a wake sent before
    // its 'ready' would be dropped, so start() waits for it as well as for the subscription.
    const published = new Promise<void>((resolve) => pub.once('ready', () => resolve()));
    for (const c of [pub, sub])
      c.connect().catch((err: unknown) => {
        this.log.warn({ err: (err as Error).message }, 'redis unavailable at start; reconnecting');
      });
    // With Redis there, start() returns subscribed and able to publish (no early signal lost); without,
    // after a short wait.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([firstSubscription, published]),
      new Promise((resolve) => (timer = setTimeout(resolve, START_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    this.queue.events.on('update', this.onUpdate);
    const queue = this.queue as { wake: () => void };
    queue.wake = () => {
      this.localWake();
      this.publish({ from: this.id, type: 'wake' });
    };
  }

  private receive(raw: string): void {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (m.from === this.id) return;
    if (m.type === 'wake') this.localWake();
    else if (m.type === 'update' && m.update)
      this.queue.events.emit('update', { ...m.update, [RELAYED]: true });
  }

  private publish(m: Message): void {
    if (!this.pub) return;
    this.pub.publish(this.channel, JSON.stringify(m)).catch((err: unknown) => {
      // Redis away: the poll paths cover it; say so once per failure, never throw into the queue
      logFailure(this.log, 'warn', err, 'redis publish failed; relying on polling');
    });
  }

  /** 'ready' while connected; ioredis' state otherwise (connecting, reconnecting, end…), for metrics. */
  get status(): string {
    return this.pub?.status ?? 'wait';
  }

  /** For readiness: true when Redis answers. */
  async ping(): Promise<boolean> {
    try {
      return (await this.pub?.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.queue.events.off('update', this.onUpdate);
    (this.queue as { wake: () => void }).wake = this.localWake;
    const connections = [this.pub, this.sub].filter((c) => c !== null);
    await Promise.allSettled(connections.map((c) => c.quit()));
    for (const c of connections) c.disconnect();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null unless REDIS_URL is set */
    redisSignals: RedisSignals | null;
  }
}
