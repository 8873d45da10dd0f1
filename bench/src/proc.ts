/**
 * What Linux's /proc says about the processes of a bench run: which process opened a TCP
 * connection (the scale bench counts each worker's webhook deliveries at the receiver that way,
 * since the workers send nothing that names them), which one listens on a port, and how much
 * CPU a process, or PostgreSQL's whole process tree, has used.
 */
import fs from 'node:fs';

/** The pid in `pids` that owns the IPv4 connection from `clientPort` to `serverPort`, or null. */
export function socketOwner(clientPort: number, serverPort: number, pids: readonly number[]): number | null {
  const inode = socketInode((local, remote) => local === clientPort && remote === serverPort);
  return inode ? (pids.find((pid) => holdsSocket(pid, inode)) ?? null) : null;
}

/** The process listening on 127.0.0.1/0.0.0.0 `port` (e.g. the postmaster), or null. */
export function listeningPid(port: number): number | null {
  const inode = socketInode((local, _remote, state) => local === port && state === '0A');
  if (!inode) return null;
  const pids = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  return pids.find((pid) => holdsSocket(pid, inode)) ?? null;
}

/** utime + stime of a process, in ms (Linux's USER_HZ is 100); 0 when it is gone. */
export function cpuMs(pid: number | undefined): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0;
}

/**
 * CPU of the postmaster and every backend it has started, in ms: its own time, its reaped
 * children's (cutime + cstime, which keeps the time of closed connections) and the live ones'.
 */
export function postgresCpuMs(postmasterPid: number): number {
  const own = statFields(postmasterPid);
  if (!own) return 0;
  let total = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * 10;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (fields && Number(fields[1]) === postmasterPid) total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/** /proc/<pid>/stat from field 3 (state) on: index 1 is the ppid, 11–14 utime, stime, cutime, cstime. */
function statFields(pid: number | undefined): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name before them is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function socketInode(matches: (localPort: number, remotePort: number, state: string) => boolean): string | null {
  let table: string;
  try {
    table = fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return null;
  }
  for (const line of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode …
    const fields = line.trim().split(/\s+/);
    const local = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16);
    const remote = Number.parseInt(fields[2]?.split(':')[1] ?? '', 16);
    if (matches(local, remote, fields[3] ?? '')) return fields[9] ?? null;
  }
  return null;
}

function holdsSocket(pid: number, inode: string): boolean {
  const link = `socket:[${inode}]`;
  try {
    const fdDir = `/proc/${pid}/fd`;
    return fs.readdirSync(fdDir).some((fd) => readLink(`${fdDir}/${fd}`) === link);
  } catch {
    return false; // gone, or not ours to read
  }
}

function readLink(file: string): string | null {
  try {
    return fs.readlinkSync(file);
  } catch {
    return null;
  }
}
