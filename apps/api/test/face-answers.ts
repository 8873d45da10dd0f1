/**
 * Every answer of the Plaid, GoCardless and Enable Banking faces that a test app serves is checked against its
 * provider's published document (@sandbank/testing/provider-documents), whatever the test asked: a
 * success, a refusal, a 404. The app's server reports here; `startTestApp`'s `close()` fails the test
 * file with every answer that did not match.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { faceAnswerProblems } from '@sandbank/testing/provider-documents';

const FACE_PATH = /^\/(plaid|gocardless\/api\/v2|enablebanking)\//;

/** Records what is wrong with each face answer of `server` into `problems`. */
export function watchFaceAnswers(server: Server, problems: string[]): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    // Read now: Express strips a router's mount path from req.url while the request is routed.
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    // The faces answer GET and POST (Enable Banking's also DELETE); a preflight or HEAD has no body to check.
    const checked = method === 'GET' || method === 'POST' || (method === 'DELETE' && url.startsWith('/enablebanking/'));
    if (!FACE_PATH.test(url) || !checked) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const where = `${method} ${url} → ${res.statusCode}`;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${where}: not JSON: ${text.slice(0, 200)}`);
        return;
      }
      const found = faceAnswerProblems(method, url, res.statusCode, body);
      if (found.length > 0) problems.push(`${where}: ${found.slice(0, 5).join('; ')}\n  body: ${text.slice(0, 500)}`);
    });
  });
}
