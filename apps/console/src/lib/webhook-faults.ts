/**
 * The webhook lab's faults as a form (docs/guides/webhooks.md): text fields per fault kind, and
 * their check, which mirrors the API's `WebhookFaults` schema (rates 0–1, shown here as percent;
 * the same bounds; a failure status 400–599 but 410, or a timeout). The API checks again.
 */
import type { WebhookFaults, WebhookFaultsInput } from './types.ts';

export const FAULT_LIMITS = { latencyMs: 10_000, reorderWindowMs: 60_000, staleSeconds: 7 * 24 * 3600 } as const;

export interface FaultsForm {
  seed: string;
  failure: { on: boolean; rate: string; counted: 'status' | 'timeout'; status: string };
  latency: { on: boolean; rate: string; ms: string };
  duplicate: { on: boolean; rate: string };
  reorder: { on: boolean; rate: string; windowMs: string };
  staleTimestamp: { on: boolean; rate: string; ageSeconds: string };
}

/** Field path (e.g. `failure.status`) → what is wrong with it. */
export type FaultErrors = Record<string, string>;

const percent = (rate: number | undefined, fallback: string) =>
  rate === undefined ? fallback : String(Math.round(rate * 10_000) / 100);

export function faultsToForm(faults: WebhookFaults | null): FaultsForm {
  const { seed, failure, latency, duplicate, reorder, staleTimestamp } = faults ?? {};
  return {
    seed: seed ?? '',
    failure: {
      on: failure !== undefined,
      rate: percent(failure?.rate, '50'),
      counted: failure?.status === 'timeout' ? 'timeout' : 'status',
      status: typeof failure?.status === 'number' ? String(failure.status) : '503',
    },
    latency: { on: latency !== undefined, rate: percent(latency?.rate, '100'), ms: String(latency?.ms ?? 500) },
    duplicate: { on: duplicate !== undefined, rate: percent(duplicate?.rate, '50') },
    reorder: { on: reorder !== undefined, rate: percent(reorder?.rate, '100'), windowMs: String(reorder?.windowMs ?? 2_000) },
    staleTimestamp: {
      on: staleTimestamp !== undefined,
      rate: percent(staleTimestamp?.rate, '50'),
      ageSeconds: String(staleTimestamp?.ageSeconds ?? 3_600),
    },
  };
}

/** The faults to send (null: none enabled, i.e. faults off), or what is wrong with the form. */
export function formToFaults(form: FaultsForm): { faults: WebhookFaultsInput | null; errors: FaultErrors } {
  const errors: FaultErrors = {};
  const rate = (path: string, text: string) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100) {
      errors[path] = 'A share from 0 to 100 %';
      return 0;
    }
    return Math.round(value * 100) / 10_000;
  };
  const int = (path: string, text: string, min: number, max: number, unit: string) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      errors[path] = `A whole number from ${min} to ${max} ${unit}`;
      return min;
    }
    return value;
  };
  const faults: WebhookFaultsInput = {};
  const seed = form.seed.trim();
  if (seed !== '') {
    if (!/^[\x21-\x7e]{1,64}$/.test(seed)) errors.seed = 'Up to 64 printable ASCII characters, no spaces';
    faults.seed = seed;
  }
  const { failure, latency, duplicate, reorder, staleTimestamp } = form;
  if (failure.on) {
    let status: number | 'timeout' = 'timeout';
    if (failure.counted === 'status') {
      status = int('failure.status', failure.status, 400, 599, '');
      if (status === 410) errors['failure.status'] = '410 would disable the webhook: choose another status';
    }
    faults.failure = { rate: rate('failure.rate', failure.rate), status };
  }
  if (latency.on) {
    faults.latency = {
      rate: rate('latency.rate', latency.rate),
      ms: int('latency.ms', latency.ms, 1, FAULT_LIMITS.latencyMs, 'ms'),
    };
  }
  if (duplicate.on) faults.duplicate = { rate: rate('duplicate.rate', duplicate.rate) };
  if (reorder.on) {
    faults.reorder = {
      rate: rate('reorder.rate', reorder.rate),
      windowMs: int('reorder.windowMs', reorder.windowMs, 1, FAULT_LIMITS.reorderWindowMs, 'ms'),
    };
  }
  if (staleTimestamp.on) {
    faults.staleTimestamp = {
      rate: rate('staleTimestamp.rate', staleTimestamp.rate),
      ageSeconds: int('staleTimestamp.ageSeconds', staleTimestamp.ageSeconds, 301, FAULT_LIMITS.staleSeconds, 's'),
    };
  }
  const anyOn = failure.on || latency.on || duplicate.on || reorder.on || staleTimestamp.on;
  return { faults: anyOn ? faults : null, errors };
}

/** One line per fault that is on, for the badge's neighbours and the list (e.g. “failure 50 % as 503”). */
export function describeFaults(faults: WebhookFaults): string[] {
  const pct = (rate: number) => `${Math.round(rate * 10_000) / 100} %`;
  const lines: string[] = [];
  if (faults.failure) {
    const as = faults.failure.status === 'timeout' ? 'a timeout' : `HTTP ${faults.failure.status}`;
    lines.push(`failures: ${pct(faults.failure.rate)} counted as ${as}`);
  }
  if (faults.latency) lines.push(`latency: ${pct(faults.latency.rate)} wait ${faults.latency.ms} ms`);
  if (faults.duplicate) lines.push(`duplicates: ${pct(faults.duplicate.rate)} sent twice`);
  if (faults.reorder) lines.push(`out of order: ${pct(faults.reorder.rate)} held up to ${faults.reorder.windowMs} ms`);
  if (faults.staleTimestamp) {
    lines.push(`stale timestamp: ${pct(faults.staleTimestamp.rate)} signed ${faults.staleTimestamp.ageSeconds} s in the past`);
  }
  if (faults.seed) lines.push(`seed ${faults.seed}`);
  return lines;
}
