// A small HTTP server on a loopback port that plays the accounts API for component tests: the web
// client's edge. Each test gives the routes it needs; every request is recorded.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { User } from '@tazamun/contracts/auth';
import { DEFAULT_PREFERENCES } from '@tazamun/contracts/auth';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export type Reply = { status: number; body?: unknown; delayMs?: number };
export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

export interface TestApi {
  url: string;
  requests: RecordedRequest[];
  route: (method: string, path: string, handler: Handler) => void;
  close: () => Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startTestApi(): Promise<TestApi> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        authorization: req.headers.authorization,
        body: await readBody(req),
      };
      requests.push(recorded);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.setHeader('Access-Control-Allow-Methods', '*');
      if (req.method === 'OPTIONS') {
        res.statusCode = 204;
        res.end();
        return;
      }
      const handler = routes.get(`${recorded.method} ${path}`);
      const reply: Reply = handler
        ? await handler(recorded)
        : { status: 404, body: { code: 'not_found', detail: 'Not found.' } };
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      res.statusCode = reply.status;
      if (reply.body === undefined) {
        res.end();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(reply.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test API did not get a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    first_name: 'Layla',
    last_name: 'Haddad',
    email: 'layla@example.org',
    name: 'Layla Haddad',
    avatar: null,
    is_approved: true,
    role: 'user',
    preferred_language: 'ar',
    date_joined: '2025-03-01T10:00:00.000Z',
    quota: { daily_limit: 10, used_today: 2, remaining: 8, resets_at: '2025-03-02T00:00:00.000Z' },
    preferences: { ...DEFAULT_PREFERENCES },
    ...overrides,
  };
}

/** The public endpoints every page's shell calls (config, health) plus a profile for the given user. */
export function serveShell(api: TestApi, user?: User): void {
  api.route('GET', '/api/health/', () => ({ status: 200, body: { status: 'ok' } }));
  api.route('GET', '/api/config/', () => ({
    status: 200,
    body: {
      version: 'v1.0.0',
      org_name: 'Test Lab',
      org_url: 'https://lab.example.org',
      org_logo_url: null,
      support_email: 'support@example.org',
      auto_approve: false,
      default_daily_quota: 10,
      docs_url: '/docs',
    },
  }));
  api.route('GET', '/api/auth/stats/', () => ({
    status: 200,
    body: {
      total_alignments: 0,
      completed_alignments: 0,
      average_accuracy: null,
      good_share: null,
      mean_confidence: null,
      total_duration_seconds: 0,
      languages_used: [],
    },
  }));
  if (user) api.route('GET', '/api/auth/profile/', () => ({ status: 200, body: user }));
}
