/**
 * N API processes (ports `firstPort`, `firstPort + 1`, …) and N workers against one database, for
 * the scale-out bench: started together, ready when every API answers /readyz, stopped together.
 */
import { cpuMs } from './proc.ts';
import { type Proc, spawnApp, waitFor200 } from './stack.ts';

export interface Fleet {
  apis: Proc[];
  workers: Proc[];
  /** One base URL per API process. */
  urls: string[];
  /** CPU time (user + system) used so far by the API processes and by the workers, in ms. */
  cpuMs(): { apis: number; workers: number };
  stop(): Promise<void>;
}

export async function startFleet(size: number, env: Record<string, string>, firstPort: number): Promise<Fleet> {
  const ports = Array.from({ length: size }, (_, i) => firstPort + i);
  const apis = ports.map((port) => spawnApp('apps/api/src/main.ts', { ...env, PORT: String(port) }));
  const workers = ports.map(() => spawnApp('apps/worker/src/main.ts', env));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const stop = async () => {
    await Promise.all([...apis, ...workers].map((proc) => proc.stop()));
  };
  try {
    const started = performance.now();
    await Promise.all(urls.map((url) => waitFor200(`${url}/readyz`, started)));
  } catch (error) {
    await stop();
    throw error;
  }
  const sum = (procs: Proc[]) => procs.reduce((total, proc) => total + cpuMs(proc.child.pid), 0);
  return { apis, workers, urls, cpuMs: () => ({ apis: sum(apis), workers: sum(workers) }), stop };
}
