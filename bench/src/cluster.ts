/**
 * A PostgreSQL cluster for the cluster drill, built from the engines a deployment uses: three
 * nodes, each a network namespace (iproute2: a veth pair to one bridge) holding an etcd member and
 * a Patroni member managing a PostgreSQL 15; HAProxy on the host routes a write port to the
 * primary and a read port to the replicas by Patroni's REST health checks (`/primary`,
 * `/replica`). Everything lives in one temporary directory and a few named links; `stop()` kills
 * what was started, deletes the namespaces and the bridge and removes the directory.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const PREFIX = 'sbdrill';
const BRIDGE = `${PREFIX}0`;
const SUBNET = '10.231.0';
const PG_PORT = 55432;
const REST_PORT = 8008;
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const CLUSTER_PASSWORD = 'drill-superuser';

export interface ClusterOptions {
  /** Ports HAProxy listens on (127.0.0.1) for writes and reads. */
  writePort: number;
  readPort: number;
  /** Patroni's `synchronous_mode`; false runs replication asynchronous only. */
  synchronous: boolean;
  /** Patroni's `maximum_lag_on_failover` in bytes (how far behind a replica may be and still be promoted). */
  maximumLagOnFailover: number;
  log: (message: string) => void;
}

export interface ClusterNode {
  name: string;
  namespace: string;
  ip: string;
  /** The interface inside the namespace: set down, the node is cut off the network. */
  device: string;
  etcd?: ChildProcess;
  patroni?: ChildProcess;
}

interface PatroniMember {
  name: string;
  role: string;
  state: string;
  lag?: number | string;
  timeline?: number;
}

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const tryRun = (command: string, args: string[]) => {
  try {
    return run(command, args);
  } catch {
    return '';
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether this machine lets us make network namespaces (root with CAP_SYS_ADMIN and CAP_NET_ADMIN). */
export function canMakeNamespaces(): boolean {
  const probe = `${PREFIX}-probe${process.pid}`;
  try {
    run('ip', ['netns', 'add', probe]);
    run('ip', ['netns', 'del', probe]);
    return true;
  } catch {
    return false;
  }
}

/** Removes what an earlier run killed before its clean-up could leave behind: only our own names. */
export function removeLeftovers(): void {
  for (const line of tryRun('ip', ['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (!name.startsWith(`${PREFIX}-n`)) continue;
    for (const pid of tryRun('ip', ['netns', 'pids', name]).split('\n').filter(Boolean)) tryRun('kill', ['-9', pid]);
    tryRun('ip', ['netns', 'del', name]);
  }
  // A namespace outlives its deletion while a process is still inside; its veth pair then stays too.
  for (const line of tryRun('ip', ['-o', 'link', 'show']).split('\n')) {
    const name = /^\d+: ([^:@]+)/.exec(line)?.[1];
    if (name?.startsWith(`${PREFIX}-v`)) tryRun('ip', ['link', 'del', name]);
  }
  tryRun('ip', ['link', 'del', BRIDGE]);
}

export class Cluster {
  readonly nodes: ClusterNode[];
  readonly dir: string;
  private haproxy?: ChildProcess;
  private readonly options: ClusterOptions;

  constructor(options: ClusterOptions) {
    this.options = options;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}-`));
    fs.chmodSync(this.dir, 0o755);
    this.nodes = [1, 2, 3].map((i) => ({
      name: `node${i}`,
      namespace: `${PREFIX}-n${i}`,
      ip: `${SUBNET}.${10 + i}`,
      device: `${PREFIX}-p${i}`,
    }));
  }

  get writeUrl(): string {
    return `postgres://postgres:${CLUSTER_PASSWORD}@127.0.0.1:${this.options.writePort}/postgres`;
  }

  async start(): Promise<void> {
    const { log } = this.options;
    removeLeftovers();
    run('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${SUBNET}.1/24`, 'dev', BRIDGE]);
    run('ip', ['link', 'set', BRIDGE, 'up']);
    for (const [i, node] of this.nodes.entries()) {
      const hostSide = `${PREFIX}-v${i + 1}`;
      run('ip', ['netns', 'add', node.namespace]);
      run('ip', ['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', node.device, 'netns', node.namespace]);
      run('ip', ['link', 'set', hostSide, 'master', BRIDGE]);
      run('ip', ['link', 'set', hostSide, 'up']);
      const inside = (...args: string[]) => run('ip', ['netns', 'exec', node.namespace, 'ip', ...args]);
      inside('addr', 'add', `${node.ip}/24`, 'dev', node.device);
      inside('link', 'set', node.device, 'up');
      inside('link', 'set', 'lo', 'up');
    }
    log(`namespaces ${this.nodes.map((node) => `${node.namespace} (${node.ip})`).join(', ')} on bridge ${BRIDGE}`);
    for (const node of this.nodes) this.startEtcd(node);
    await this.waitForEtcd();
    log('etcd: 3 members healthy');
    for (const node of this.nodes) this.writePatroniConfig(node);
    // The first node bootstraps the cluster; the others then clone it (pg_basebackup).
    this.startPatroni(this.nodes[0] as ClusterNode);
    await this.waitFor(async () => (await this.leader()) === 'node1', 60_000, 'node1 to bootstrap as primary');
    for (const node of this.nodes.slice(1)) this.startPatroni(node);
    await this.waitForReplicas(2, 120_000);
    this.startHaproxy();
    // HAProxy starts with every server up and needs `fall` failed checks to take the replicas out.
    let inARow = 0;
    await this.waitFor(
      async () => {
        inARow = (await this.writable()) ? inARow + 1 : 0;
        return inARow >= 10;
      },
      30_000,
      "HAProxy's write port to reach only the primary",
    );
    log(`patroni: ${JSON.stringify(await this.members())}`);
  }

  private spawnIn(node: ClusterNode, label: string, command: string[], asPostgres = false): ChildProcess {
    const logFile = fs.openSync(path.join(this.dir, `${node.name}-${label}.log`), 'a');
    // setpriv execs in place (no forking wrapper), so the pid we hold is the process itself.
    const user = asPostgres ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'] : [];
    const child = spawn('ip', ['netns', 'exec', node.namespace, ...user, ...command], {
      // The run's own folder (755): the clone may sit in a private folder the postgres user cannot enter.
      cwd: this.dir,
      stdio: ['ignore', logFile, logFile],
      env: { ...process.env, HOME: this.dir, PATH: `${PG_BIN}:${process.env.PATH}` },
    });
    fs.closeSync(logFile);
    return child;
  }

  private startEtcd(node: ClusterNode): void {
    const peers = this.nodes.map((peer) => `${peer.name}=http://${peer.ip}:2380`).join(',');
    const dataDir = path.join(this.dir, `${node.name}-etcd`);
    node.etcd = this.spawnIn(node, 'etcd', [
      'etcd',
      `--name=${node.name}`,
      `--data-dir=${dataDir}`,
      `--listen-client-urls=http://${node.ip}:2379`,
      `--advertise-client-urls=http://${node.ip}:2379`,
      `--listen-peer-urls=http://${node.ip}:2380`,
      `--initial-advertise-peer-urls=http://${node.ip}:2380`,
      `--initial-cluster=${peers}`,
      '--initial-cluster-state=new',
      `--initial-cluster-token=${PREFIX}-${process.pid}`,
      '--heartbeat-interval=100',
      '--election-timeout=1000',
    ]);
  }

  private async waitForEtcd(): Promise<void> {
    await this.waitFor(
      async () => {
        const answers = await Promise.all(
          this.nodes.map((node) => fetchJson(`http://${node.ip}:2379/health`).then((body) => body?.health === 'true')),
        );
        return answers.every(Boolean);
      },
      30_000,
      'etcd to be healthy',
    );
  }

  private writePatroniConfig(node: ClusterNode): void {
    const { synchronous, maximumLagOnFailover } = this.options;
    const nodeDir = path.join(this.dir, node.name);
    fs.mkdirSync(nodeDir, { recursive: true, mode: 0o700 });
    const etcdHosts = this.nodes.map((peer) => `${peer.ip}:2379`).join(',');
    // Failover in ~10 s: the leader key lives 10 s (ttl), Patroni loops every second and gives
    // up on etcd or PostgreSQL after 4 s (loop_wait + 2 × retry_timeout ≤ ttl).
    const config = `scope: ${PREFIX}
name: ${node.name}
restapi:
  listen: ${node.ip}:${REST_PORT}
  connect_address: ${node.ip}:${REST_PORT}
etcd3:
  hosts: ${etcdHosts}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: ${maximumLagOnFailover}
    synchronous_mode: ${synchronous}
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 120
        shared_buffers: 64MB
        synchronous_commit: '${synchronous ? 'on' : 'local'}'
  initdb:
    - encoding: UTF8
    - locale: C
    - data-checksums
  pg_hba:
    - local all all trust
    - host replication replicator ${SUBNET}.0/24 scram-sha-256
    - host all all ${SUBNET}.0/24 scram-sha-256
postgresql:
  listen: ${node.ip}:${PG_PORT}
  connect_address: ${node.ip}:${PG_PORT}
  data_dir: ${path.join(nodeDir, 'data')}
  bin_dir: ${PG_BIN}
  pgpass: ${path.join(nodeDir, 'pgpass')}
  authentication:
    superuser:
      username: postgres
      password: ${CLUSTER_PASSWORD}
    replication:
      username: replicator
      password: ${CLUSTER_PASSWORD}
    rewind:
      username: postgres
      password: ${CLUSTER_PASSWORD}
  parameters:
    unix_socket_directories: ${nodeDir}
    fsync: 'on'
`;
    fs.writeFileSync(path.join(this.dir, `${node.name}.yml`), config);
    run('chown', ['-R', 'postgres:postgres', nodeDir, path.join(this.dir, `${node.name}.yml`)]);
  }

  startPatroni(node: ClusterNode): void {
    node.patroni = this.spawnIn(node, 'patroni', ['patroni', path.join(this.dir, `${node.name}.yml`)], true);
  }

  private startHaproxy(): void {
    const { writePort, readPort } = this.options;
    const servers = (check: string) =>
      this.nodes.map((node) => `    server ${node.name} ${node.ip}:${PG_PORT} check port ${REST_PORT}`).join('\n') +
      `\n    option httpchk GET ${check}\n    http-check expect status 200\n`;
    // Checked every 500 ms, down after 2 failures; a server marked down has its sessions cut at
    // once, so the API's pooled connections to a lost primary fail fast instead of hanging.
    const config = `global
    maxconn 1000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
listen primary
    bind 127.0.0.1:${writePort}
${servers('/primary')}
listen replicas
    bind 127.0.0.1:${readPort}
    balance source
${servers('/replica')}
`;
    const file = path.join(this.dir, 'haproxy.cfg');
    fs.writeFileSync(file, config);
    const logFile = fs.openSync(path.join(this.dir, 'haproxy.log'), 'a');
    this.haproxy = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', logFile, logFile] });
    fs.closeSync(logFile);
  }

  /** Whether HAProxy's write port reaches a PostgreSQL that accepts writes. */
  async writable(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.writeUrl, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
      return rows[0]?.recovery === false;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  }

  /**
   * The members as the primary's Patroni sees them (first answering node otherwise). A Patroni that has
   * just restarted can answer from what it knew before (seen: a killed old primary calling itself the
   * leader while another node was), so the primary's own view is asked first.
   */
  async members(): Promise<PatroniMember[]> {
    const leader = await this.leader();
    const order = leader ? [this.node(leader), ...this.nodes.filter((node) => node.name !== leader)] : this.nodes;
    for (const node of order) {
      const body = await fetchJson(`http://${node.ip}:${REST_PORT}/cluster`);
      if (Array.isArray(body?.members)) {
        return (body.members as PatroniMember[]).map(({ name, role, state, lag, timeline }) => ({
          name,
          role,
          state,
          lag,
          timeline,
        }));
      }
    }
    return [];
  }

  /** The node whose Patroni answers 200 on `/primary` (it holds the leader key and runs a primary). */
  async leader(except?: string): Promise<string | null> {
    for (const node of this.nodes) {
      if (node.name === except) continue;
      const response = await fetch(`http://${node.ip}:${REST_PORT}/primary`, { signal: AbortSignal.timeout(500) }).catch(
        () => null,
      );
      await response?.arrayBuffer();
      if (response?.status === 200) return node.name;
    }
    return null;
  }

  node(name: string): ClusterNode {
    const node = this.nodes.find((candidate) => candidate.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** Waits until `count` replicas stream from the primary (and, in synchronous mode, one is synchronous). */
  async waitForReplicas(count: number, timeoutMs: number): Promise<void> {
    await this.waitFor(
      async () => {
        const [leader, members] = await Promise.all([this.leader(), this.members()]);
        const primary = members.find((member) => member.role === 'leader');
        // The view must be the primary's, and a replica must follow its timeline: an old primary that has
        // not been rewound yet still claims WAL the others never had, and a replica then defers to it in
        // the next failover while it cannot take over itself (no new primary within 60 s, seen once).
        if (!leader || primary?.name !== leader) return false;
        // Patroni 3.0 says `running` for a replica that replays WAL; later versions say `streaming`.
        const streaming = members.filter(
          (member) =>
            member.role !== 'leader' &&
            (member.state === 'streaming' || member.state === 'running') &&
            (primary.timeline === undefined || member.timeline === primary.timeline),
        );
        const synchronous = members.some((member) => member.role === 'sync_standby');
        return streaming.length >= count && (!this.options.synchronous || synchronous);
      },
      timeoutMs,
      `${count} replicas to stream`,
    );
  }

  /** A node's crash: SIGKILL every process in its namespace but its etcd member (PostgreSQL, its backends, Patroni). */
  killDatabase(node: ClusterNode): number {
    const etcdPid = String(node.etcd?.pid);
    const pids = tryRun('ip', ['netns', 'pids', node.namespace])
      .split('\n')
      .filter((pid) => pid && pid !== etcdPid);
    for (const pid of pids) tryRun('kill', ['-9', pid]);
    return pids.length;
  }

  /**
   * Cuts (or restores) the node's links to its peers only: a blackhole route to each, so what it
   * sends them is silently dropped — its WAL stops reaching the replicas — while HAProxy and the
   * API still reach it.
   */
  setPeersReachable(node: ClusterNode, reachable: boolean): void {
    for (const peer of this.nodes.filter((candidate) => candidate !== node)) {
      run('ip', ['netns', 'exec', node.namespace, 'ip', 'route', reachable ? 'del' : 'add', 'blackhole', `${peer.ip}/32`]);
    }
  }

  /** Cuts the node off the network (its interface down) or puts it back. */
  setLink(node: ClusterNode, up: boolean): void {
    run('ip', ['netns', 'exec', node.namespace, 'ip', 'link', 'set', node.device, up ? 'up' : 'down']);
  }

  async waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
    const since = performance.now();
    for (;;) {
      if (await check().catch(() => false)) return performance.now() - since;
      if (performance.now() - since > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await pause(100);
    }
  }

  /** Stops everything, deletes the namespaces and the bridge, removes the directory. Safe to call twice. */
  async stop(keepLogs?: string): Promise<void> {
    this.haproxy?.kill('SIGKILL');
    for (const node of this.nodes) {
      for (const pid of tryRun('ip', ['netns', 'pids', node.namespace]).split('\n').filter(Boolean)) tryRun('kill', ['-9', pid]);
      node.patroni?.kill('SIGKILL');
      node.etcd?.kill('SIGKILL');
    }
    // Wait for them to be gone (a namespace with a process inside outlives its deletion).
    for (let i = 0; i < 50; i++) {
      if (this.nodes.every((node) => !tryRun('ip', ['netns', 'pids', node.namespace]).trim())) break;
      await pause(100);
    }
    removeLeftovers();
    if (keepLogs) {
      fs.mkdirSync(keepLogs, { recursive: true });
      for (const file of fs.readdirSync(this.dir).filter((name) => name.endsWith('.log'))) {
        fs.copyFileSync(path.join(this.dir, file), path.join(keepLogs, file));
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

async function fetchJson(url: string): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return null;
  }
}
