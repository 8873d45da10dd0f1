/** What the end-to-end scripts against Actual Budget share: a JSON call that names its failure, and a checked step. */

/** A JSON request; a non-2xx answer throws with the method, URL, status and the start of the body. */
export async function json<T>(url: string, init: RequestInit & { body?: string } = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Prints ✔ or ✘ for a step; a failed one makes the script exit non-zero at the end. */
export function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? '✔' : '✘'} ${what}`);
  if (!ok) process.exitCode = 1;
}
