/**
 * CPU time of processes, read from /proc: the cost of a request in CPU microseconds does not move
 * with the machine's other load the way requests/s and latency do, so the floor comparison reports it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds a process has used so far (0 once it is gone). */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The pid of the PostgreSQL server listening on `port` and of every backend it has forked. */
export function postgresPids(port: number): number[] {
  const parents = new Map<number, number>();
  let postmaster: number | undefined;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const portAt = argv.indexOf('-p');
      if (/postgres$/.test(argv[0] ?? '') && portAt > 0 && argv[portAt + 1] === String(port)) postmaster = Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  if (postmaster === undefined) return [];
  return [postmaster, ...[...parents].filter(([, parent]) => parent === postmaster).map(([pid]) => pid)];
}

/** The machine's busy CPU seconds (all cores) so far, from /proc/stat. */
export function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/**
 * Starts counting; `stop()` gives CPU seconds used since by each pid, by each group (a function
 * listing its pids when asked: PostgreSQL's backends) and by the machine.
 */
export function cpuMeter(pids: Record<string, number | undefined>, groups: Record<string, () => number[]> = {}) {
  const groupSeconds = (list: number[]) => new Map(list.map((pid) => [pid, cpuSeconds(pid)]));
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const groupStart = Object.fromEntries(Object.entries(groups).map(([name, list]) => [name, groupSeconds(list())]));
  const machineStart = machineBusySeconds();
  return {
    stop(): Record<string, number> & { machine: number } {
      const used: Record<string, number> = Object.fromEntries(
        Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid) - (start[name] ?? 0)]),
      );
      for (const [name, list] of Object.entries(groups)) {
        const before = groupStart[name] ?? new Map<number, number>();
        // A process that started meanwhile counts from zero; one that ended is lost (the pools keep theirs).
        used[name] = [...groupSeconds(list())].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0);
      }
      return { ...used, machine: machineBusySeconds() - machineStart };
    },
  };
}

/**
 * Instructions a process executes in user space (its JavaScript, V8, libuv; not the kernel), counted by `perf stat` from the CPU's own
 * counters: unlike time, the count barely moves when other processes share the cores, so the
 * floor comparison reports it. Null when perf (Debian's linux-perf) or the counters are not available.
 */
export function instructionMeter(pid: number | undefined) {
  if (pid === undefined) return null;
  const perf = spawnSync('perf', ['--version'], { stdio: 'ignore' });
  if (perf.status !== 0) return null;
  const child = spawn('perf', ['stat', '-x', ',', '-e', 'instructions:u', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // perf stops by itself when the process it counts exits.
  const exited = new Promise((resolve) => child.once('close', resolve));
  const started = new Promise((resolve) => setTimeout(resolve, 100)); // perf attaches
  return {
    started,
    async stop(): Promise<number | null> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      const count = Number(/^(\d+),/m.exec(output)?.[1]);
      return Number.isFinite(count) && count > 0 ? count : null;
    },
  };
}
