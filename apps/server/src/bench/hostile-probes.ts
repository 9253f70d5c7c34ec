// The hostile-request probes of docs/reliability.md, run in a loop beside the load bench's soak
// (`npm run bench:load -- --soak=5m --hostile`). Each probe has the answers it may get; anything else,
// a 5xx above all, is counted unexpected. Raw sockets for what fetch cannot send (huge or unfinished
// headers).
import { connect } from 'node:net';
import { SignJWT } from 'jose';

export interface ProbeFigures {
  probe: string;
  runs: number;
  unexpected: number;
  /** answers seen: status code, or 'closed' / 'error' for a connection that gave none */
  answers: string;
}

export interface HostileReport {
  probes: ProbeFigures[];
  unexpected: number;
}

interface Options {
  url: string;
  /** an access token of the load user */
  access: string;
  /** JWT_SECRET of the server, to sign tokens that lack exp */
  secret: string;
  /** an account whose password the probes guess in parallel */
  victim: string;
  seconds: number;
}

type Answer = string;

const nested = (depth: number) => '['.repeat(depth) + '0' + ']'.repeat(depth);
const deepBody = (() => {
  const one = nested(2000);
  return `[${Array(Math.floor(960_000 / (one.length + 1)))
    .fill(one)
    .join(',')}]`;
})();
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';

/** Sends `raw` on a fresh connection and returns the status the server answered, or 'closed'. */
function rawRequest(url: string, raw: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 'closed'));
    socket.on('connect', () => socket.write(raw));
  });
}

async function status(res: Promise<Response>): Promise<Answer> {
  try {
    const r = await res;
    await r.arrayBuffer();
    return String(r.status);
  } catch {
    return 'error';
  }
}

export async function runHostileProbes(o: Options): Promise<HostileReport> {
  const { url } = o;
  const auth = { authorization: `Bearer ${o.access}` };
  const json = { 'content-type': 'application/json' };
  const claims = JSON.parse(Buffer.from(o.access.split('.')[1]!, 'base64url').toString('utf8')) as {
    sub: string;
    sid: string;
  };
  const key = new TextEncoder().encode(o.secret);
  const noExp = await new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setAudience('tazamun')
    .setIssuedAt()
    .sign(key);
  const svgForm = new FormData();
  svgForm.append('avatar', new Blob([SVG], { type: 'image/svg+xml' }), 'a.svg');
  const host = new URL(url).host;

  const probes: [string, Answer[], () => Promise<Answer[]>][] = [
    [
      '960 KB of 2,000-deep arrays to logout',
      ['413'],
      async () => [
        await status(fetch(`${url}/api/auth/logout/`, { method: 'POST', headers: json, body: deepBody })),
      ],
    ],
    [
      '3,000-deep JSON to login',
      ['400'],
      async () => [
        await status(
          fetch(`${url}/api/auth/login/`, {
            method: 'POST',
            headers: json,
            body: `{"email":${nested(3000)}}`,
          }),
        ),
      ],
    ],
    [
      '15 parallel sign-ins (14 wrong, 1 right) on one account',
      ['200', '401', '429'],
      async () =>
        Promise.all(
          Array.from({ length: 15 }, (_, i) =>
            status(
              fetch(`${url}/api/auth/login/`, {
                method: 'POST',
                headers: json,
                body: JSON.stringify({
                  email: o.victim,
                  password: i === 7 ? 'Lantern-Orbit-1987' : 'Wrong-0000-xx',
                }),
              }),
            ),
          ),
        ),
    ],
    [
      'DELETE on the login route',
      ['405'],
      async () => [await status(fetch(`${url}/api/auth/login/`, { method: 'DELETE' }))],
    ],
    [
      'bodiless JSON POST to quota/use',
      ['200'],
      async () => [
        await status(fetch(`${url}/api/auth/quota/use/`, { method: 'POST', headers: { ...json, ...auth } })),
      ],
    ],
    [
      'access token without exp',
      ['401'],
      async () => [
        await status(fetch(`${url}/api/auth/profile/`, { headers: { authorization: `Bearer ${noExp}` } })),
      ],
    ],
    [
      'forged token in the event stream query',
      ['401'],
      async () => [
        await status(
          fetch(`${url}/api/alignments/00000000-0000-4000-8000-000000000000/events/?access_token=x.y.z`),
        ),
      ],
    ],
    [
      'SVG avatar',
      ['415'],
      async () => [
        await status(fetch(`${url}/api/auth/avatar/`, { method: 'POST', headers: auth, body: svgForm })),
      ],
    ],
    [
      'malformed %-encoding in the path',
      ['400'],
      async () => [await status(fetch(`${url}/api/alignments/%E0%A4%A/`))],
    ],
    [
      'forged password-reset token',
      ['400'],
      async () => [
        await status(
          fetch(`${url}/api/auth/password-reset/confirm/`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({
              token: 'forged',
              new_password: 'Quiet-River-2031',
              new_password_confirm: 'Quiet-River-2031',
            }),
          }),
        ),
      ],
    ],
    [
      '20 KB of headers',
      ['431'],
      async () => [
        await rawRequest(
          url,
          `GET /api/health/ HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        ),
      ],
    ],
  ];

  const figures = new Map<string, { runs: number; unexpected: number; answers: Map<string, number> }>();
  const record = (name: string, expected: Answer[], answers: Answer[]) => {
    const f = figures.get(name) ?? { runs: 0, unexpected: 0, answers: new Map() };
    figures.set(name, f);
    for (const a of answers) {
      f.runs += 1;
      f.answers.set(a, (f.answers.get(a) ?? 0) + 1);
      if (!expected.includes(a)) f.unexpected += 1;
    }
  };

  const end = Date.now() + o.seconds * 1000;
  // headers that never finish, a few at a time: each holds a connection until HEADERS_TIMEOUT (408)
  const slow: Promise<void>[] = [];
  const slowLoop = (async () => {
    while (Date.now() < end) {
      if (slow.length < 20) {
        const p = rawRequest(url, `GET /api/health/ HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `).then((a) =>
          record('unfinished headers (slowloris)', ['408'], [a]),
        );
        slow.push(p);
        void p.finally(() => slow.splice(slow.indexOf(p), 1));
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  while (Date.now() < end) {
    for (const [name, expected, run] of probes) {
      if (Date.now() >= end) break;
      record(name, expected, await run());
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await slowLoop;
  await Promise.all(slow);
  const list = [...figures].map(([probe, f]) => ({
    probe,
    runs: f.runs,
    unexpected: f.unexpected,
    answers: [...f.answers].map(([a, n]) => `${a}×${n}`).join(' '),
  }));
  return { probes: list, unexpected: list.reduce((a, p) => a + p.unexpected, 0) };
}
