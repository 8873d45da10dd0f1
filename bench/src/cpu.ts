/**
 * CPU time of processes, read from /proc: the cost of a request in CPU microseconds does not move
 * with the machine's other load the way requests/s and latency do, so the ablation compares it.
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

/** The machine's busy CPU seconds (all cores) so far, from /proc/stat. */
export function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** Starts counting; `stop()` gives CPU seconds used by each pid and by the machine since. */
export function cpuMeter(pids: Record<string, number | undefined>) {
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const machineStart = machineBusySeconds();
  return {
    stop(): Record<string, number> & { machine: number } {
      const used = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid) - (start[name] ?? 0)]));
      return { ...used, machine: machineBusySeconds() - machineStart };
    },
  };
}

/**
 * Instructions a process executes in user space (its JavaScript, V8, libuv; not the kernel), counted by `perf stat` from the CPU's own
 * counters: unlike time, the count barely moves when other processes share the cores, so the
 * ablation compares it. Null when perf (Debian's linux-perf) or the counters are not available.
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
